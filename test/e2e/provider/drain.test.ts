// Draining on delete: the real server gets weight 0 on the director (no new connections), and its removal waits for
// its active connections to end, or for drainSeconds. Proven with a real held TCP connection through the VIP.
import { fetchThroughVip, holdConnection, labExec, labTopology, tally, waitFor } from "../../lab/lab";
import { connectionTo, Declared, hostSnapshot, LabStack } from "./fixture";

const HOSTS = ["dir1", "rs1", "rs2"];

describe("drain on delete", () => {
  let stack: LabStack;
  const vip = labTopology().freeVips.ipv4[8];
  const dir1 = connectionTo("dir1");
  const service = { protocol: "tcp", address: vip, port: 80 };
  const before: Record<string, string> = {};
  const server = (name: string, address: string, drainSeconds: number): Declared => ({
    name: `drain-${name}`,
    kind: "realServer",
    inputs: { directors: [dir1], service, address, drainSeconds, host: connectionTo(name) },
  });
  const base: Declared[] = [
    { name: "dir1", kind: "director", inputs: { connection: dir1 } },
    { name: "drain-web", kind: "virtualService", inputs: { directors: [dir1], ...service, scheduler: "rr" } },
  ];
  /** ActiveConn / weight of a real server on dir1 ("" when it is not in the table). */
  const row = async (rip: string) => {
    const out = await labExec("dir1", `ipvsadm -Ln --exact -t ${vip}:80`);
    const line = out.split("\n").find((l) => l.includes(`${rip}:80`));
    if (!line) return undefined;
    const [, , , weight, active] = line.trim().split(/\s+/);
    return { weight: Number(weight), active: Number(active) };
  };
  const waitForActive = (rip: string) =>
    waitFor(`an active connection to ${rip} on dir1`, async () => (await row(rip))?.active === 1, 20_000);

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("a held connection delays the removal until it ends; meanwhile new connections go elsewhere", async () => {
    // rs2 joins at weight 0 first, so the held connection surely lands on rs1; then rs2 takes weight and rs1 goes.
    const rs2 = (weight: number): Declared => {
      const declared = server("rs2", "198.51.100.22", 90);
      return { ...declared, inputs: { ...declared.inputs, weight } };
    };
    await stack.deploy([...base, server("rs1", "198.51.100.21", 90), rs2(0)]);
    const heldSince = Date.now();
    const held = holdConnection(vip, 80, 25); // ends by itself after 25 s
    try {
      await waitForActive("198.51.100.21");
      const started = Date.now();
      const removal = stack.deploy([...base, rs2(1)]);
      removal.catch(() => undefined); // awaited below; a failure must not go unhandled meanwhile
      let quiesced = await row("198.51.100.21");
      for (let i = 0; i < 120 && quiesced?.weight !== 0; i++) quiesced = await row("198.51.100.21");
      expect(quiesced).toEqual({ weight: 0, active: 1 });
      expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs2: 4 });
      const summary = await removal;
      const finished = Date.now();
      expect(summary.deleted.map((urn) => urn.split("::").pop())).toEqual(["drain-rs1"]);
      expect(await row("198.51.100.21")).toBeUndefined();
      // Removed once the connection ended (~25 s after it began), well before the 90 s drain limit.
      expect(finished - heldSince).toBeGreaterThanOrEqual(22_000);
      expect(finished - started).toBeLessThan(70_000);
      process.stdout.write(`drain: removal took ${finished - started} ms, waiting for a connection held 25 s\n`);
    } finally {
      held.close();
    }
  }, 600_000);

  test("a connection that does not end is left behind at the deadline; the wait prints progress", async () => {
    await stack.deploy([...base, server("rs1", "198.51.100.21", 30)]);
    const held = holdConnection(vip, 80, 50);
    try {
      await waitForActive("198.51.100.21");
      const started = Date.now();
      const seen = stack.diagnostics.length;
      await stack.deploy(base);
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(30_000);
      expect(waited).toBeLessThan(50_000);
      expect(await row("198.51.100.21")).toBeUndefined();
      const lines = stack.diagnostics
        .slice(seen)
        .map((d) => d.message)
        .filter((m) => m.includes("198.51.100.21") && m.includes("drain"));
      process.stdout.write(`drain of 30 s: ${lines.length} lines\n${lines.join("\n")}\n`);
      // The start, progress at 10 s and 20 s, and the deadline.
      expect(lines.length).toBeGreaterThanOrEqual(4);
      expect(lines.filter((m) => m.includes("active connection(s) left after"))).toHaveLength(3);
    } finally {
      held.close();
    }
  }, 600_000);

  test("destroy leaves every host as it was", async () => {
    await stack.destroy();
    for (const h of HOSTS) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });
  }, 600_000);
});
