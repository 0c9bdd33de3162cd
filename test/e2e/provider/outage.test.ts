// Operating through an outage: with the master's cable cut, a refresh succeeds. It warns once, in one line, about the
// host that does not answer, reads the pair's master from the member that does (the backup, now serving), and keeps
// the unreachable director's resources as last known.
import { PropertyMap } from "../../harness/provider-host";
import { fetchThroughVip, labExec, labTopology, tally, waitFor } from "../../lab/lab";
import { connectionTo, haPairTopology, hostSnapshot, LabStack, urnOf } from "./fixture";

const HOSTS = ["dir1", "dir2", "rs1"];

describe("refresh through an outage of the pair's master", () => {
  let stack: LabStack;
  const vip = labTopology().freeVips.ipv4[8];
  const before: Record<string, string> = {};
  // dir1 written with a short dial budget (2 attempts of 3 s): the refresh does not wait the default's minutes.
  const dir1: PropertyMap = { ...connectionTo("dir1"), dialErrorLimit: 2, perDialTimeout: 3 };
  const dir1Host = dir1.host as string;
  const declared = haPairTopology("outage", vip, { virtualRouterId: 57 }).map((r) =>
    JSON.parse(
      JSON.stringify(r)
        .split(JSON.stringify(connectionTo("dir1")))
        .join(JSON.stringify(dir1)),
    ),
  );
  const holds = async (director: string) => (await labExec(director, "ip -o addr show dev eth0")).includes(` ${vip}/`);

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await labExec("lab-vm", "ip link set v-dir1-0 up");
    await stack?.stop();
  });

  test("the master's cable cut: refresh warns once and reports the backup as master", async () => {
    await stack.deploy(declared);
    expect(stack.outputs("outage-pair", "haPair").master).toBe(dir1Host);
    try {
      await labExec("lab-vm", "ip link set v-dir1-0 down");
      const tookMs = await waitFor("dir2 to hold the VIP", () => holds("dir2"), 30_000);
      expect(tally(await fetchThroughVip(vip, 80, 2))).toEqual({ rs1: 2 });
      stack.host.clearLogs();
      stack.diagnostics.length = 0;
      const started = Date.now();
      const refreshed = await stack.engine.refresh();
      const warnings = stack.diagnostics.filter((d) => d.message.includes("unreachable"));
      console.log(
        `outage: dir2 held the VIP ${tookMs} ms after the cut; refresh took ${Date.now() - started} ms and ` +
          `warned:\n${warnings.map((w) => `${w.severity} ${w.urn}: ${w.message}`).join("\n")}`,
      );
      expect(refreshed[urnOf("outage-pair", "haPair")]?.master).toBe(connectionTo("dir2").host);
      expect(refreshed[urnOf("dir1", "director")]).not.toBeNull();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ severity: "warning", message: expect.stringContaining(dir1Host) });
      expect(stack.host.logs.filter((l) => /^\s+at /.test(l.line))).toEqual([]);
    } finally {
      await labExec("lab-vm", "ip link set v-dir1-0 up");
    }
    await waitFor("dir1 to hold the VIP again", () => holds("dir1"), 60_000);
    await stack.destroy();
    for (const h of HOSTS) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });
  }, 600_000);
});
