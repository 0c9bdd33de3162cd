// An HA pair must never have two VIP holders during an update, and a director whose IPVS table did not come back at
// boot must not take the VIPs. Both are watched from the VM, which sees every lab host's network namespace.
import { moreThanOneHolder, watchVipHolders } from "../../lab/failover";
import { labExec, labRun, labTopology, rebootHost, waitFor } from "../../lab/lab";
import { changeLogLength, connectionTo, Declared, LabStack } from "./fixture";

describe("HA pair safety", () => {
  let stack: LabStack;
  const vip = labTopology().freeVips.ipv4[9];
  const dir1 = connectionTo("dir1");
  const dir2 = connectionTo("dir2");
  // advert_int must match between peers (VRRPv2 drops a mismatched advert): changing it is an in-place update that
  // breaks peering until both members have it.
  const declare = (advertIntervalSeconds: number): Declared[] => [
    { name: "dir1", kind: "director", inputs: { connection: dir1 } },
    { name: "dir2", kind: "director", inputs: { connection: dir2 } },
    {
      name: "safe-pair",
      kind: "haPair",
      inputs: {
        primary: { connection: dir1, interface: "eth0" },
        backup: { connection: dir2, interface: "eth0" },
        virtualRouterId: 53,
        advertIntervalSeconds,
        vips: [vip],
      },
    },
    {
      name: "safe-web",
      kind: "virtualService",
      inputs: { directors: [dir1, dir2], protocol: "tcp", address: vip, port: 80, scheduler: "rr", bindVip: false },
    },
  ];
  const holds = async (host: string) => (await labExec(host, "ip -o addr show dev eth0")).includes(` ${vip}/`);
  beforeAll(async () => {
    stack = await LabStack.start();
    await stack.deploy(declare(1));
    expect([await holds("dir1"), await holds("dir2")]).toEqual([true, false]);
  }, 900_000);
  afterAll(async () => {
    await stack?.destroy();
    await stack?.stop();
  }, 600_000);

  test("a pair whose backup is its primary by another address is refused before anything changes", async () => {
    const logLength = await changeLogLength("dir1");
    const sameMachinePair: Declared = {
      name: "same-machine-pair",
      kind: "haPair",
      inputs: {
        primary: { connection: dir1, interface: "eth0" },
        backup: { connection: { ...dir1, host: labTopology().directors.dir1.dip6 }, interface: "eth0" },
        virtualRouterId: 54,
        vips: [labTopology().freeVips.ipv4[8]],
      },
    };
    const failed = await stack.deploy([...declare(1), sameMachinePair]).catch((error: Error) => error);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toMatch(/are one machine .*a pair needs two directors; nothing was changed/);
    expect(await changeLogLength("dir1")).toBe(logLength);
  });

  test("an update that breaks peering (advert interval) fails on the backup: never two holders", async () => {
    // The backup's config write fails half-way (a folder where its temp file goes), after the checks passed.
    const blocker = "/etc/keepalived/keepalived.conf.lvs-pulumi-tmp";
    await labExec("dir2", `mkdir -p ${blocker}/in-the-way`);
    const watch = watchVipHolders(vip, ["dir1", "dir2"]);
    const failure = await stack.deploy(declare(2)).catch((e: Error) => e);
    await new Promise((resolve) => setTimeout(resolve, 8000)); // past VRRP's master-down interval (3 adverts)
    const seen = await watch.stop();
    await labExec("dir2", `rm -rf ${blocker}`);
    const keepalived = await labExec("dir1", "journalctl -q --no-pager -u keepalived -n 25 -o cat");
    process.stdout.write(
      `ha-update (backup fails): VIP holders sampled ${JSON.stringify(seen)}\nerror: ${String(failure)}\n` +
        `dir1 keepalived:\n${keepalived}\n`,
    );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(
      /configuring the backup 198\.51\.100\.12 failed: [\s\S]*Done before it: stopped keepalived on the backup/,
    );
    expect(seen.seen.dir1).toBeGreaterThan(20); // the watcher does see a holder
    expect(moreThanOneHolder(seen)).toEqual([]);
    expect([await holds("dir1"), await holds("dir2")]).toEqual([true, false]);

    const summary = await stack.deploy(declare(2));
    expect(summary.updated.map((urn) => urn.split("::").pop())).toEqual(["safe-pair"]);
    expect((await labExec("dir2", "systemctl is-active keepalived")).trim()).toBe("active");
    expect([await holds("dir1"), await holds("dir2")]).toEqual([true, false]);
  }, 600_000);

  test("a primary whose table replay failed at boot does not take the VIPs back", async () => {
    // A fragment ipvsadm cannot restore: the boot replay fails, as a kernel without a scheduler module would make it.
    await labExec(
      "dir1",
      "echo '-A -t 198.51.100.49:80 -s no-such-scheduler' > /etc/lvs-pulumi/ipvs.d/10-svc-broken.rules",
    );
    try {
      await rebootHost("dir1");
      await expectNoTakeover();
    } finally {
      // What an operator does once the replay is mended: both units may start again (keepalived, refused by the
      // guard, is left "failed"; later suites compare hosts against their state before, "inactive").
      await labExec(
        "dir1",
        "rm -f /etc/lvs-pulumi/ipvs.d/10-svc-broken.rules; systemctl reset-failed lvs-pulumi-ipvs keepalived",
      );
    }
  }, 600_000);

  async function expectNoTakeover(): Promise<void> {
    await waitFor(
      "the boot replay to finish",
      async () => (await labRun("dir1", "systemctl is-active lvs-pulumi-ipvs.service")).stdout.trim() !== "activating",
      60_000,
    );
    expect((await labRun("dir1", "systemctl is-failed lvs-pulumi-ipvs.service")).stdout.trim()).toBe("failed");
    await new Promise((resolve) => setTimeout(resolve, 8000)); // several advert intervals: time to preempt, if it would
    expect((await labRun("dir1", "systemctl is-active keepalived")).stdout.trim()).not.toBe("active");
    expect([await holds("dir1"), await holds("dir2")]).toEqual([false, true]);
  }
});
