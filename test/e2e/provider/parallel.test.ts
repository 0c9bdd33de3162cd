// Pulumi runs independent operations in parallel: many on one director at once must leave a correct live table and
// a correct set of boot fragments (the provider holds a lock on the host for each read -> plan -> apply).
import { labExec, labTopology } from "../../lab/lab";
import { connectionTo, LabStack, urnOf } from "./fixture";

describe("parallel operations on one director", () => {
  let stack: LabStack;
  const vip = labTopology().freeVips.ipv4[6];
  const dir1 = connectionTo("dir1");
  const service = { protocol: "tcp", address: vip, port: 80 };
  const rips = Array.from({ length: 8 }, (_, i) => `198.51.100.${30 + i}`);

  beforeAll(async () => {
    stack = await LabStack.start();
    await stack.deploy([
      { name: "dir1", kind: "director", inputs: { connection: dir1 } },
      { name: "par-web", kind: "virtualService", inputs: { directors: [dir1], ...service, scheduler: "rr" } },
    ]);
  });
  afterAll(async () => {
    await stack?.destroy();
    await stack?.stop();
  });

  test("8 real servers created at once, then deleted at once", async () => {
    const provider = stack.providerText("realServer");
    const created = await Promise.all(
      rips.map(async (address, i) => {
        const urn = urnOf(`par-rs${i}`, "realServer");
        const news = { directors: [dir1], service, address, weight: i + 1, __provider: provider };
        const checked = await stack.host.check(urn, {}, news);
        return { urn, ...(await stack.host.create(urn, checked.inputs)) };
      }),
    );
    const table = await labExec("dir1", "ipvsadm -Sn");
    for (const [i, address] of rips.entries()) expect(table).toContain(`-r ${address}:80 -g -w ${i + 1}`);
    const fragments = await labExec("dir1", "cat /etc/lvs-pulumi/ipvs.d/20-rs-*");
    expect(fragments.trim().split("\n")).toHaveLength(rips.length);

    await Promise.all(created.map((c) => stack.host.delete(c.urn, c.id, c.outputs)));
    const after = await labExec("dir1", "ipvsadm -Sn");
    for (const address of rips) expect(after).not.toContain(address);
    expect(await labExec("dir1", "ls /etc/lvs-pulumi/ipvs.d/")).not.toContain("20-rs-");
  });
});
