// Operating through an outage: with the master's cable cut, a refresh succeeds. It warns once, in one line, about the
// host that does not answer, reads the pair's master from the member that does (the backup, now serving), and keeps
// the unreachable director's resources as last known. With the primary listed in LVS_PULUMI_HOSTS_DOWN, a change
// reaches the backup, which holds the VIP when the primary comes back with a stale table, until an up converges it.
import { PropertyMap } from "../../harness/provider-host";
import { loopUntilStopped } from "../../lab/failover";
import { fetchThroughVip, labExec, labTopology, tally, urlFor, waitFor } from "../../lab/lab";
import { connectionTo, Declared, haPairTopology, hostSnapshot, LabStack, urnOf } from "./fixture";

const HOSTS = ["dir1", "dir2", "rs1", "rs2"];

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
  // rs2 before the pair: the engine applies in the order given, as Pulumi does along dependencies (LvsCluster makes
  // a pair depend on its services' real servers).
  const withRs2 = (weight: number): Declared[] => {
    const rs2: Declared = {
      name: "outage-web-rs2",
      kind: "realServer",
      inputs: {
        directors: [dir1, connectionTo("dir2")],
        service: { protocol: "tcp", address: vip, port: 80 },
        address: "198.51.100.22",
        weight,
        host: connectionTo("rs2"),
      },
    };
    const pairAt = declared.findIndex((r: Declared) => r.kind === "haPair");
    return [...declared.slice(0, pairAt), rs2, ...declared.slice(pairAt)];
  };

  /** Who answers each request from the client (rs2 must get none once it is drained or removed). */
  const watchAnswers = () =>
    loopUntilStopped(
      "client",
      `t=$(date +%s%3N); if b=$(curl -s -m 1 '${urlFor(vip, 80)}'); then echo "$t $b"; else echo "$t failed"; fi`,
      0.1,
    );
  /** A timeline from the VM: who holds the VIP, and rs2's weight in dir1's table (empty once it is gone there). */
  const watchDir1 = () =>
    loopUntilStopped(
      "lab-vm",
      `h=; ip -n dir1 -o addr show dev eth0 | grep -q ' ${vip}/' && ip -n dir1 -o link show dev eth0 | grep -q 'state UP' && h=dir1; ` +
        `ip -n dir2 -o addr show dev eth0 | grep -q ' ${vip}/' && h="$h+dir2"; ` +
        `w=$(ip netns exec dir1 ipvsadm -Ln -t ${vip}:80 | awk '$2 == "198.51.100.22:80" {print $4}'); ` +
        `echo "$(date +%s%3N) \${h#+} $w"`,
      0.2,
    );
  const cutDir1 = async () => {
    await labExec("lab-vm", "ip link set v-dir1-0 down");
    await waitFor("dir2 to hold the VIP", () => holds("dir2"), 30_000);
    await stack.restartProvider({ LVS_PULUMI_HOSTS_DOWN: dir1Host });
  };

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
    // The next command is a new provider process: this one remembers dir1 as unreachable (operations/unreachable.ts).
    await stack.restartProvider();
    await stack.destroy();
    for (const h of HOSTS) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });
  }, 600_000);

  test("a change with the primary listed as down reaches the backup; the primary, back with a stale table, takes the VIP only once converged", async () => {
    await stack.restartProvider();
    await stack.deploy(withRs2(1));
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 2, rs2: 2 });
    const answers = watchAnswers();
    const timeline = watchDir1();
    let drainedAt = 0;
    try {
      await cutDir1();
      const during = await stack.deploy(withRs2(0));
      drainedAt = Number((await labExec("lab-vm", "date +%s%3N")).trim());
      expect(during.updated.map((u) => u.split("::").pop()).sort()).toEqual(["outage-pair", "outage-web-rs2"]);
      expect(stack.outputs("outage-web-rs2", "realServer").missingFrom).toEqual([
        expect.stringContaining(`@${dir1Host}:22`),
      ]);
      expect(await labExec("dir2", "ipvsadm -Ln")).toMatch(/198\.51\.100\.22:80\s+Route\s+0\s/);
      expect(await labExec("dir2", "cat /etc/keepalived/keepalived.conf")).toMatch(/priority 254\n/);
    } finally {
      await labExec("lab-vm", "ip link set v-dir1-0 up");
    }
    // Back with rs2 at weight 1 in its table: it hears the held priority and stays backup.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    expect([await holds("dir1"), await holds("dir2")]).toEqual([false, true]);
    expect(await labExec("dir1", "ipvsadm -Ln")).toMatch(/198\.51\.100\.22:80\s+Route\s+1\s/);

    await stack.restartProvider();
    stack.host.clearLogs();
    const after = await stack.deploy(withRs2(0));
    await waitFor("dir1 to hold the VIP again", () => holds("dir1"), 30_000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const served = (await answers.stop()).map((line) => line.split(" "));
    const samples = (await timeline.stop()).map((line) => line.split(" "));
    const convergedAt = samples.find(([, , weight]) => weight === "0")?.[0];
    const heldAt = samples.find(([at, holder]) => holder === "dir1" && Number(at) > drainedAt)?.[0];
    const toRs2 = served.filter(([at, who]) => who === "rs2" && Number(at) > drainedAt);
    const failed = served.filter(([, who]) => who === "failed");
    console.log(
      `outage change: updated after the outage ${JSON.stringify(after.updated.map((u) => u.split("::").pop()))}; ` +
        `dir1's table converged at +${Number(convergedAt) - drainedAt} ms, dir1 took the VIP at ` +
        `+${Number(heldAt) - drainedAt} ms (after the weight change); ${toRs2.length} requests to rs2 after it was ` +
        `set to weight 0, ${failed.length} of ${served.length} requests failed (cable cut included)\n` +
        stack.host.logs
          .map((l) => l.line)
          .filter((line) => /hold|holds the VIPs/.test(line))
          .join("\n"),
    );
    expect(after.updated.map((u) => u.split("::").pop()).sort()).toEqual(["outage-pair", "outage-web-rs2"]);
    expect(convergedAt).toBeDefined();
    expect(heldAt).toBeDefined();
    expect(Number(heldAt)).toBeGreaterThan(Number(convergedAt));
    expect(toRs2).toEqual([]);
    expect(await labExec("dir2", "cat /etc/keepalived/keepalived.conf")).not.toMatch(/priority 254\n/);
    expect(stack.outputs("outage-web-rs2", "realServer").missingFrom).toBeUndefined();
    const again = await stack.deploy(withRs2(0));
    expect([...again.updated, ...again.created, ...again.deleted]).toEqual([]);
  }, 900_000);

  test("a real server deleted with the primary listed as down: gone from the backup, the delete fails naming the primary; after the outage the primary takes the VIP only once its table lost it too", async () => {
    await stack.restartProvider();
    await stack.deploy(withRs2(1));
    const answers = watchAnswers();
    const timeline = watchDir1();
    let removedAt = 0;
    try {
      await cutDir1();
      const failed = await stack.deploy(declared).catch((error: Error) => error);
      removedAt = Number((await labExec("lab-vm", "date +%s%3N")).trim());
      expect(String(failed)).toMatch(new RegExp(`${dir1Host.replace(/\./g, "\\.")}:22 .*LVS_PULUMI_HOSTS_DOWN`));
      expect(await labExec("dir2", "ipvsadm -Ln")).not.toContain("198.51.100.22:80");
    } finally {
      await labExec("lab-vm", "ip link set v-dir1-0 up");
    }
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    expect([await holds("dir1"), await holds("dir2")]).toEqual([false, true]);

    // The first up after it: the pair's update comes before the retried delete, so dir1's table still lists rs2.
    await stack.restartProvider();
    stack.diagnostics.length = 0;
    const first = await stack.deploy(declared);
    expect(first.deleted.map((u) => u.split("::").pop())).toEqual(["outage-web-rs2"]);
    expect(stack.diagnostics.map((d) => d.message).join("\n")).toMatch(
      /keeps the VIPs: the IPVS table of the primary 198\.51\.100\.11 differs in tcp:198\.51\.100\.\d+:80\/198\.51\.100\.22:80/,
    );
    expect([await holds("dir1"), await holds("dir2")]).toEqual([false, true]);
    const second = await stack.deploy(declared);
    expect(second.updated.map((u) => u.split("::").pop())).toEqual(["outage-pair"]);
    await waitFor("dir1 to hold the VIP again", () => holds("dir1"), 30_000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const served = (await answers.stop()).map((line) => line.split(" "));
    const samples = (await timeline.stop()).map((line) => line.split(" "));
    const goneAt = samples.find(([at, , weight]) => weight === "" && Number(at) > removedAt)?.[0];
    const heldAt = samples.find(([at, holder]) => holder === "dir1" && Number(at) > removedAt)?.[0];
    const toRs2 = served.filter(([at, who]) => who === "rs2" && Number(at) > removedAt);
    console.log(
      `outage delete: rs2 gone from dir1 at +${Number(goneAt) - removedAt} ms, dir1 took the VIP at ` +
        `+${Number(heldAt) - removedAt} ms; ${toRs2.length} requests to rs2 after its delete, ` +
        `${served.filter(([, who]) => who === "failed").length} of ${served.length} requests failed (cable cut included)`,
    );
    expect(Number(heldAt)).toBeGreaterThan(Number(goneAt));
    expect(toRs2).toEqual([]);
    const again = await stack.deploy(declared);
    expect([...again.updated, ...again.created, ...again.deleted]).toEqual([]);
    await stack.destroy();
    for (const h of HOSTS) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });
  }, 900_000);
});
