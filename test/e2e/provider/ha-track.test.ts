// An HA pair that watches more than its peer: a track script failing on the master moves the VIP to the backup and
// its recovery brings it back (preempt); notify hooks run on state changes; PASS authentication stays out of logs and
// state; a configuration keepalived refuses (`keepalived -t` on the host) fails the apply and changes nothing.
import { fetchThroughVip, labExec, labTopology, tally, waitFor } from "../../lab/lab";
import { vipHolders } from "../../lab/failover";
import { Declared, haPairTopology, hostSnapshot, LabStack } from "./fixture";

const HOSTS = ["dir1", "dir2", "rs1"];
const DIRECTORS = ["dir1", "dir2"];
// The track script fails on a director while this file exists there.
const FAIL_FLAG = "/run/lvs-test-track-fail";
const NOTIFY_LOG = "/run/lvs-test-notify.log";
const PASSWORD = "tr4ck:p/";

describe("HA pair with track script, notify hooks and keepalived -t", () => {
  let stack: LabStack;
  const vip = labTopology().freeVips.ipv4[9];
  const before: Record<string, string> = {};

  const declare = (primaryTrack: string[] = ["eth1"], extra: Record<string, unknown> = {}): Declared[] =>
    haPairTopology("t", vip, {
      primary: { trackInterfaces: primaryTrack },
      backup: { trackInterfaces: ["eth1"] },
      virtualRouterId: 62,
      trackScripts: [{ command: `test ! -e ${FAIL_FLAG}`, intervalSeconds: 1, fall: 1, rise: 1 }],
      // Quotes, $ and a pipe: the command reaches /bin/sh exactly as written.
      notify: { any: `echo "state=$3 of '$2'" | tr -d "'" >> ${NOTIFY_LOG}` },
      gratuitousArp: { masterRepeat: 2, masterRefreshSeconds: 30 },
      authentication: { password: PASSWORD },
      ...extra,
    });
  const holders = () => vipHolders(vip, DIRECTORS);
  const keepalivedFiles = (host: string) =>
    labExec(host, "find /etc/keepalived -type f | sort | xargs sha256sum; systemctl is-active keepalived");

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await stack?.stop();
    for (const d of DIRECTORS) await labExec(d, `rm -f ${FAIL_FLAG} ${NOTIFY_LOG}`);
  });

  test("deploy: the primary holds the VIP, hooks ran, the password is in no log or plain output", async () => {
    await stack.deploy(declare());
    expect(await holders()).toEqual(["dir1"]);
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 4 });
    expect(await labExec("dir1", `cat ${NOTIFY_LOG}`)).toContain("state=MASTER of LVS_PULUMI_62_V4");
    for (const d of DIRECTORS) {
      expect(await labExec(d, "stat -c %a /etc/keepalived/keepalived.conf")).toBe("600\n");
      expect(await labExec(d, "stat -c '%a %U' /etc/keepalived/lvs-pulumi/track-0.sh")).toBe("700 root\n");
    }
    expect(stack.host.logs.filter((l) => l.line.includes(PASSWORD))).toEqual([]);
    const outputs = stack.outputs("t-pair", "haPair");
    expect(JSON.stringify(outputs.keepalived)).not.toContain(PASSWORD);
  }, 600_000);

  test("the track script fails on the master: the backup takes the VIP; it recovers: the primary takes it back", async () => {
    await labExec("dir1", `touch ${FAIL_FLAG}`);
    const failover = await waitFor("dir2 alone holds the VIP", async () => (await holders()).join() === "dir2", 30_000);
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 4 });
    expect(await labExec("dir1", `cat ${NOTIFY_LOG}`)).toContain("state=FAULT of LVS_PULUMI_62_V4");
    expect(await labExec("dir2", `cat ${NOTIFY_LOG}`)).toContain("state=MASTER of LVS_PULUMI_62_V4");

    await labExec("dir1", `rm -f ${FAIL_FLAG}`);
    const back = await waitFor(
      "dir1 alone holds the VIP again",
      async () => (await holders()).join() === "dir1",
      30_000,
    );
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 4 });
    console.log(
      `track script (interval 1 s, fall 1, rise 1): VIP on the backup ${failover} ms after the flag, ` +
        `back on the primary ${back} ms after its removal (polled every 0.5 s)`,
    );
  }, 600_000);

  test("a configuration keepalived -t refuses fails the apply with keepalived's message and changes nothing", async () => {
    const files = { dir1: await keepalivedFiles("dir1"), dir2: await keepalivedFiles("dir2") };
    const started = Date.now();
    const failed = await stack.deploy(declare(["lvstest9"])).catch((error: Error) => error);
    expect(failed).toBeInstanceOf(Error);
    const message = (failed as Error).message;
    expect(message).toMatch(/refuses the new configuration; nothing was changed on either member/);
    expect(message).toMatch(/tracked interface lvstest9 doesn't exist/);
    expect(message).not.toContain(PASSWORD);
    expect({ dir1: await keepalivedFiles("dir1"), dir2: await keepalivedFiles("dir2") }).toEqual(files);
    expect(await holders()).toEqual(["dir1"]);
    console.log(
      `refused configuration: apply failed in ${Date.now() - started} ms; keepalived said: ${message.match(/\(.*lvstest9[^\n]*/)?.[0]}`,
    );
  }, 600_000);

  test("preemptDelaySeconds on the running pair: the VIP stays put; a restarted primary waits that long to take it back", async () => {
    const delay = 6;
    await stack.deploy(declare(["eth1"], { preemptDelaySeconds: delay }));
    expect(await holders()).toEqual(["dir1"]);
    for (const d of DIRECTORS) {
      expect(await labExec(d, "cat /etc/keepalived/keepalived.conf")).toContain(`    preempt_delay ${delay}\n`);
    }
    await labExec("dir1", "systemctl stop keepalived");
    const failover = await waitFor("dir2 alone holds the VIP", async () => (await holders()).join() === "dir2", 30_000);
    await labExec("dir1", "systemctl start keepalived");
    const back = await waitFor(
      "dir1 alone holds the VIP again",
      async () => (await holders()).join() === "dir1",
      60_000,
    );
    // Counted from keepalived's start, a little before `systemctl start` returns; without a delay it takes ~1 s.
    expect(back).toBeGreaterThanOrEqual((delay - 1) * 1000);
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 4 });
    console.log(
      `preempt_delay ${delay} s: VIP on the backup ${failover} ms after stopping the primary's keepalived, ` +
        `back on the primary ${back} ms after starting it`,
    );
  }, 600_000);

  test("destroy leaves every host as it was", async () => {
    await stack.destroy();
    for (const d of DIRECTORS) await labExec(d, `rm -f ${FAIL_FLAG} ${NOTIFY_LOG}`);
    for (const h of HOSTS) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });
  }, 600_000);
});
