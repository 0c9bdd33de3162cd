// Two RealServer resources on one host sharing a VIP (one service on port 80, one on 443): removing one must not undo
// the setup the other still needs; removing both restores the host.
import { labExec, labTopology } from "../../lab/lab";
import { connectionTo, Declared, hostSnapshot, LabStack } from "./fixture";

describe("real servers sharing a VIP on one host", () => {
  let stack: LabStack;
  const vip = labTopology().freeVips.ipv4[7];
  const dir1 = connectionTo("dir1");
  const rs1 = connectionTo("rs1");
  let before: string;
  const declare = (ports: number[]): Declared[] => [
    { name: "dir1", kind: "director", inputs: { connection: dir1 } },
    ...ports.flatMap((port): Declared[] => [
      {
        name: `shared-${port}`,
        kind: "virtualService",
        inputs: { directors: [dir1], protocol: "tcp", address: vip, port },
      },
      {
        name: `shared-${port}-rs1`,
        kind: "realServer",
        inputs: {
          directors: [dir1],
          service: { protocol: "tcp", address: vip, port },
          address: "198.51.100.21",
          host: rs1,
        },
      },
    ]),
  ];
  const rs1Setup = () =>
    labExec(
      "rs1",
      "ip -o -4 addr show dev lo | awk '{print $4}'; sysctl -n net.ipv4.conf.all.arp_ignore net.ipv4.conf.all.arp_announce",
    );

  beforeAll(async () => {
    before = await hostSnapshot("rs1");
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("the VIP and ARP settings stay while any of them needs them", async () => {
    await stack.deploy(declare([80, 443]));
    const both = await rs1Setup();
    expect(both).toBe(`127.0.0.1/8\n${vip}/32\n1\n2\n`);
    const summary = await stack.deploy(declare([80]));
    expect(summary.deleted).toHaveLength(2);
    expect(await rs1Setup()).toBe(both);
    await stack.destroy();
    expect(await hostSnapshot("rs1")).toBe(before);
  });
});
