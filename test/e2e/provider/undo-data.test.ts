// The values a real server's setup replaced stay recorded until they are restored: a delete whose restore fails
// (the recorded gateway is unreachable) keeps the claim and the originals, and the retried delete restores them.
import { labExec, labTopology } from "../../lab/lab";
import { connectionTo, Declared, hostSnapshot, LabStack } from "./fixture";

const HOST = "nrs1";
// A gateway of the real server's own (not the director): on a dummy link of the lab's unused 198.51.100.192/26.
const GATEWAY = "198.51.100.249";
const CLIENTS = labTopology().subnets.client.ipv4;

describe("undo data kept until the restore succeeded", () => {
  let stack: LabStack;
  let before: string;
  const dir1 = connectionTo("dir1");
  const dip = labTopology().directors.dir1.dip.nat;
  const service = { protocol: "tcp", address: labTopology().freeVips.ipv4[1], port: 80 };
  const declared: Declared[] = [
    { name: "dir1", kind: "director", inputs: { connection: dir1 } },
    { name: "undo-web", kind: "virtualService", inputs: { directors: [dir1], ...service, scheduler: "rr" } },
    {
      name: "undo-nrs1",
      kind: "realServer",
      inputs: {
        directors: [dir1],
        service,
        address: "198.51.100.71",
        forwarding: "nat",
        directorAddress: dip,
        clientPrefix: CLIENTS,
        host: connectionTo(HOST),
      },
    },
  ];
  const clientRoute = () => labExec(HOST, `ip -4 route show ${CLIENTS}`);

  beforeAll(async () => {
    await labExec(
      HOST,
      `ip link add lab-gw type dummy && ip addr add 198.51.100.250/30 dev lab-gw && ip link set lab-gw up &&
       ip route add ${CLIENTS} via ${GATEWAY} dev lab-gw`,
    );
    before = await hostSnapshot(HOST);
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await labExec(HOST, "ip link set lab-gw up; ip route del 203.0.113.0/26 2>/dev/null; ip link del lab-gw || true");
    await stack?.stop();
  });

  test("a failed restore keeps the original route recorded; fixed and retried, it is restored", async () => {
    await stack.deploy(declared);
    expect(await clientRoute()).toContain(`via ${dip}`);
    const recorded = await labExec(HOST, "cat /etc/lvs-pulumi/originals.json");
    expect(recorded).toContain(GATEWAY);

    // The recorded gateway becomes unreachable: restoring the route through it fails.
    await labExec(HOST, "ip link set lab-gw down");
    const failed = await stack.destroy().then(
      () => undefined,
      (error: Error) => error.message,
    );
    console.log(`undo-data: the delete failed with: ${failed}`);
    expect(failed).toContain(GATEWAY);
    expect(await labExec(HOST, "cat /etc/lvs-pulumi/originals.json")).toBe(recorded);
    expect(await labExec(HOST, "ls /etc/lvs-pulumi/claims.d")).toMatch(/^rs_/m);

    await labExec(HOST, "ip link set lab-gw up");
    await stack.destroy();
    console.log(`undo-data: after the retried delete, ${await clientRoute()}`);
    expect(await clientRoute()).toContain(`via ${GATEWAY} dev lab-gw`);
    expect(await hostSnapshot(HOST)).toBe(before);
  });
});
