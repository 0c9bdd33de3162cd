// Health checks: checked services are keepalived's on the director. Under steady client load a real server whose
// server stops leaves the table within seconds and no request fails after that; started again, it comes back on its
// own (DR with an HTTP check, NAT with a TCP check). A sorry server stands in while all are down. A check that cannot
// run is refused before anything changes. Figures are printed.
import { labClock, outage, recordLoad } from "../../lab/failover";
import { fetchThroughVip, labExec, labRun, labTopology, rebootHost, tally, waitFor } from "../../lab/lab";
import { PropertyMap } from "../../harness/provider-host";
import { connectionKey, ConnectionSpec } from "../../../provider/remote";
import { LEGACY_CHECKED_ONLY_MARKER } from "../../../provider/render/checked-services";
import { connectionTo, Declared, hostSnapshot, LabStack, urnOf } from "./fixture";

const HOSTS = ["dir1", "rs1", "rs2", "nrs1", "nrs2"];

describe("health checks (keepalived owns a checked service)", () => {
  let stack: LabStack;
  const vip = labTopology().freeVips.ipv4[10];
  const natVip = labTopology().freeVips.ipv4[7];
  const dip = labTopology().directors.dir1.dip.nat;
  const dir1 = connectionTo("dir1");
  const dir1Key = connectionKey(dir1 as unknown as ConnectionSpec);
  const web = { protocol: "tcp", address: vip, port: 80 };
  const natWeb = { protocol: "tcp", address: natVip, port: 80 };
  const fast = { intervalSeconds: 1, retries: 1, delayBeforeRetrySeconds: 1, connectTimeoutSeconds: 1 };
  const httpCheck = { type: "http", path: "/", status: 200, ...fast };
  const director: Declared = { name: "dir1", kind: "director", inputs: { connection: dir1 } };
  const service = (name: string, identity: PropertyMap, extra: PropertyMap = {}): Declared => ({
    name,
    kind: "virtualService",
    inputs: { directors: [dir1], ...identity, scheduler: "rr", ...extra },
  });
  const server = (name: string, identity: PropertyMap, host: string, address: string, extra: PropertyMap = {}) =>
    ({
      name,
      kind: "realServer",
      inputs: { directors: [dir1], service: identity, address, host: connectionTo(host), ...extra },
    }) as Declared;
  const checkedStack = (healthCheck: PropertyMap): Declared[] => [
    director,
    service("checked-web", web, { healthCheck }),
    server("checked-rs1", web, "rs1", "198.51.100.21", { serviceChecked: true }),
    server("checked-rs2", web, "rs2", "198.51.100.22", { serviceChecked: true }),
    service("checked-nat", natWeb, { healthCheck: { type: "tcp", ...fast } }),
    ...(["nrs1", "nrs2"] as const).map((host, i) =>
      server(`checked-${host}`, natWeb, host, `198.51.100.7${i + 1}`, {
        serviceChecked: true,
        forwarding: "nat",
        directorAddress: dip,
      }),
    ),
  ];
  const before: Record<string, string> = {};
  const inTable = async (target: string, rip: string) =>
    (await labExec("dir1", `ipvsadm -Ln -t ${target}:80 2>/dev/null || true`)).includes(`${rip}:80`);
  const keepalivedFiles = () =>
    labExec(
      "dir1",
      "cd /etc/keepalived && find . -type f | sort | xargs sha256sum; systemctl show -p MainPID lvs-pulumi-checker",
    );
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /**
   * Under steady load through `target`, stops the HTTP server of `host` (RIP `rip`): the time until it leaves the
   * table, the requests that failed after that, the time until it is back once started again. Printed and returned.
   */
  const failAndRecover = async (what: string, target: string, host: string, rip: string) => {
    const load = recordLoad(target, 80);
    await pause(3000);
    const faultAt = await labClock();
    await labExec(host, "systemctl stop lab-httpd@80");
    await waitFor(`${rip} out of the table`, async () => !(await inTable(target, rip)), 30_000);
    const leftAt = await labClock();
    await pause(5000);
    const restartAt = await labClock();
    await labExec(host, "systemctl start lab-httpd@80");
    await waitFor(`${rip} back in the table`, async () => inTable(target, rip), 30_000);
    const backAt = await labClock();
    await pause(3000);
    const requests = await load.stop();
    const afterLeaving = outage(requests, leftAt);
    const meanwhile = outage(requests, faultAt, leftAt);
    console.log(
      `health check (${what}): ${host} left the table ${leftAt - faultAt} ms after its server stopped ` +
        `(${meanwhile.failed} of ${meanwhile.failed + meanwhile.served} requests failed meanwhile); ` +
        `after that ${afterLeaving.failed} of ${afterLeaving.failed + afterLeaving.served} failed; ` +
        `started again, it was back in the table after ${backAt - restartAt} ms`,
    );
    return { leftAfterMs: leftAt - faultAt, afterLeaving };
  };
  /**
   * Back in rotation: 4 requests answered 2 and 2. Waited for, not asked once: under the lab's emulated CPU a check
   * with a 1 s timeout may fail once more right after the server started (likely; seen: 1 and 3 in a full run).
   */
  const inRotation = (target: string, [a, b]: [string, string]) =>
    waitFor(
      `${a} and ${b} answering 2 of 4 requests each`,
      async () => {
        const answers = tally(await fetchThroughVip(target, 80, 4));
        return answers[a] === 2 && answers[b] === 2;
      },
      20_000,
    );

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    stack = await LabStack.start();
  });
  afterAll(async () => {
    for (const host of ["rs1", "rs2", "nrs1", "nrs2"]) await labRun(host, "systemctl start lab-httpd@80");
    await stack?.stop();
  });

  test("an unchecked service becomes checked under load: keepalived takes its entries over, no request fails", async () => {
    const unchecked: Declared[] = [
      director,
      service("checked-web", web),
      server("checked-rs1", web, "rs1", "198.51.100.21"),
      server("checked-rs2", web, "rs2", "198.51.100.22"),
    ];
    expect((await stack.deploy(unchecked)).created).toHaveLength(4);
    const load = recordLoad(vip, 80);
    await pause(2000);
    const switchedAt = await labClock();
    const summary = await stack.deploy(checkedStack(httpCheck));
    await pause(3000);
    const during = outage(await load.stop(), switchedAt);
    console.log(
      `unchecked -> checked under load: ${during.failed} of ${during.failed + during.served} requests failed`,
    );
    expect(during.failed).toBe(0);
    expect(during.served).toBeGreaterThan(10);
    expect(summary.updated.length + summary.created.length).toBe(6);
    expect(await labExec("dir1", "systemctl is-active lvs-pulumi-checker")).toBe("active\n");
    // alpha: a real server gets traffic once its first check passed.
    await waitFor(
      "every real server in dir1's table",
      async () =>
        (await inTable(vip, "198.51.100.21")) &&
        (await inTable(vip, "198.51.100.22")) &&
        (await inTable(natVip, "198.51.100.71")) &&
        (await inTable(natVip, "198.51.100.72")),
      30_000,
    );
    // In rotation, not once: a check of the lab's slow guest may fail once more and take a server out for a moment
    // (a full run saw 1 and 3 of 4 right after the take-over).
    await inRotation(vip, ["rs1", "rs2"]);
    await inRotation(natVip, ["nrs1", "nrs2"]);
    expect(await labExec("dir1", "ls /etc/lvs-pulumi/ipvs.d 2>/dev/null | grep -c . || true")).toBe("0\n");
  });

  test("DR, HTTP check: a real server whose HTTP server dies leaves within seconds, no request fails after, it comes back", async () => {
    const { leftAfterMs, afterLeaving } = await failAndRecover(
      "DR, HTTP, delay 1 s, 1 retry",
      vip,
      "rs1",
      "198.51.100.21",
    );
    expect(afterLeaving.failed).toBe(0);
    expect(afterLeaving.served).toBeGreaterThan(20);
    expect(leftAfterMs).toBeLessThan(15_000);
    await inRotation(vip, ["rs1", "rs2"]);
  });

  test("NAT, TCP check: the same", async () => {
    const { leftAfterMs, afterLeaving } = await failAndRecover(
      "NAT, TCP, delay 1 s, 1 retry",
      natVip,
      "nrs1",
      "198.51.100.71",
    );
    expect(afterLeaving.failed).toBe(0);
    expect(afterLeaving.served).toBeGreaterThan(20);
    expect(leftAfterMs).toBeLessThan(15_000);
    await inRotation(natVip, ["nrs1", "nrs2"]);
  });

  test("systemctl restart lvs-pulumi-checker keeps the entries (--dont-release-ipvs): no request fails", async () => {
    const load = recordLoad(vip, 80);
    await pause(2000);
    const restartedAt = await labClock();
    await labExec("dir1", "systemctl restart lvs-pulumi-checker");
    await pause(4000);
    const during = outage(await load.stop(), restartedAt);
    console.log(`checker restart under load: ${during.failed} of ${during.failed + during.served} requests failed`);
    expect(during.failed).toBe(0);
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 2, rs2: 2 });
  });

  test("a director set up by an older lvs-pulumi (checks in keepalived.service): the next change moves them, no request fails", async () => {
    // The older layout, made by hand: keepalived.service runs keepalived.conf with the checked services
    // (--dont-release-ipvs from our drop-in, enabled by us); no checker of their own.
    await labExec(
      "dir1",
      `set -e
       conf=/etc/keepalived/lvs-pulumi-checker.conf
       { head -n 1 $conf; echo '${LEGACY_CHECKED_ONLY_MARKER}'; tail -n +2 $conf; } > /etc/keepalived/keepalived.conf
       mkdir -p /etc/systemd/system/keepalived.service.d
       printf '[Service]\\nExecStart=\\nExecStart=/usr/sbin/keepalived --dont-fork --dont-release-ipvs $DAEMON_ARGS\\n' \\
         > /etc/systemd/system/keepalived.service.d/lvs-pulumi.conf
       touch /etc/lvs-pulumi/keepalived-enabled-by-lvs-pulumi
       systemctl daemon-reload; systemctl enable --quiet keepalived; systemctl start keepalived
       systemctl stop lvs-pulumi-checker; systemctl disable --quiet lvs-pulumi-checker
       rm $conf /etc/systemd/system/lvs-pulumi-checker.service; systemctl daemon-reload`,
    );
    expect(await labExec("dir1", "systemctl is-active keepalived")).toBe("active\n");
    const load = recordLoad(vip, 80);
    const natLoad = recordLoad(natVip, 80);
    await pause(2000);
    const movedAt = await labClock();
    // Any change to a checked service's files moves them: here rs1's weight.
    const heavier = (d: Declared) => (d.name === "checked-rs1" ? { ...d, inputs: { ...d.inputs, weight: 2 } } : d);
    await stack.deploy(checkedStack(httpCheck).map(heavier));
    await pause(3000);
    const during = outage(await load.stop(), movedAt);
    const natDuring = outage(await natLoad.stop(), movedAt);
    console.log(
      `older layout moved to the checker under load: ${during.failed} of ${during.failed + during.served} and ` +
        `${natDuring.failed} of ${natDuring.failed + natDuring.served} requests failed`,
    );
    expect(during.failed + natDuring.failed).toBe(0);
    expect(during.served).toBeGreaterThan(5);
    expect(await labExec("dir1", "systemctl is-active keepalived lvs-pulumi-checker || true")).toBe(
      "inactive\nactive\n",
    );
    expect(
      await labExec("dir1", "ls /etc/keepalived /etc/systemd/system/keepalived.service.d 2>&1 || true"),
    ).not.toMatch(/keepalived\.conf\n|lvs-pulumi\.conf/);
    expect(await labExec("dir1", "ls /etc/lvs-pulumi")).not.toContain("keepalived-enabled-by-lvs-pulumi");
    expect(await labExec("dir1", "ipvsadm -Ln -t " + vip + ":80")).toMatch(/198\.51\.100\.21:80\s+Route\s+2 /);
    await stack.deploy(checkedStack(httpCheck));
    await inRotation(vip, ["rs1", "rs2"]);
    await inRotation(natVip, ["nrs1", "nrs2"]);
  });

  test("refresh: a real server taken out by its check is down, not drift; a hand edit is drift that up repairs", async () => {
    const [rs1, rs2] = ["checked-rs1", "checked-rs2"].map((name) => urnOf(name, "realServer"));
    await labExec("rs1", "systemctl stop lab-httpd@80");
    await waitFor("rs1 out of the table", async () => !(await inTable(vip, "198.51.100.21")), 30_000);
    let live = await stack.engine.refresh();
    expect(live[rs1]).toMatchObject({ weight: 1, health: { [dir1Key]: "down" } });
    expect(live[rs1]?.missingFrom).toBeUndefined();
    expect(live[rs2]).toMatchObject({ health: { [dir1Key]: "up" } });
    expect((await stack.deploy(checkedStack(httpCheck))).updated).toEqual([]);

    await labExec("rs1", "systemctl start lab-httpd@80");
    await waitFor("rs1 back in the table", async () => inTable(vip, "198.51.100.21"), 30_000);
    // By hand: rs2's weight changed, rs1 deleted. keepalived's reload would not repair either; `up` does.
    await labExec(
      "dir1",
      `ipvsadm -e -t ${vip}:80 -r 198.51.100.22:80 -g -w 9; ipvsadm -d -t ${vip}:80 -r 198.51.100.21:80`,
    );
    live = await stack.engine.refresh();
    expect(live[rs2]?.weight).toBe(9);
    // Gone from its only director, rs1 is gone from state (as any real server would be) and `up` creates it again:
    // lvs-pulumi puts keepalived's entry back, since keepalived's reload never would.
    expect(live[rs1]).toBeNull();
    const repaired = await stack.deploy(checkedStack(httpCheck));
    expect(repaired.updated).toEqual([rs2]);
    expect(repaired.created).toEqual([rs1]);
    const table = await labExec("dir1", "ipvsadm -Sn");
    expect(table).toContain("-r 198.51.100.21:80 -g -w 1");
    expect(table).toContain("-r 198.51.100.22:80 -g -w 1");
  });

  test("reboot of the director: the checked services serve again without a person; a real server down at boot gets nothing", async () => {
    await labExec("rs1", "systemctl stop lab-httpd@80");
    await waitFor("rs1 out of the table", async () => !(await inTable(vip, "198.51.100.21")), 30_000);
    const rebootMs = await rebootHost("dir1");
    const bootedAt = await labClock();
    await waitFor(
      "rs2, nrs1 and nrs2 in the table after boot",
      async () =>
        (await inTable(vip, "198.51.100.22")) &&
        (await inTable(natVip, "198.51.100.71")) &&
        (await inTable(natVip, "198.51.100.72")),
      60_000,
    );
    const servingMs = (await labClock()) - bootedAt;
    expect(await labExec("dir1", "systemctl is-active lvs-pulumi-checker")).toBe("active\n");
    expect(await inTable(vip, "198.51.100.21")).toBe(false);
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs2: 4 });
    expect(tally(await fetchThroughVip(natVip, 80, 4))).toEqual({ nrs1: 2, nrs2: 2 });
    await labExec("rs1", "systemctl start lab-httpd@80");
    await waitFor("rs1 back in the table", async () => inTable(vip, "198.51.100.21"), 30_000);
    console.log(
      `reboot with checked services: dir1 back over SSH after ${rebootMs} ms; every healthy real server in the ` +
        `table ${servingMs} ms later; rs1 (down at boot) got no request`,
    );
  });

  test("a misc check whose program does not exist is refused; keepalived's files and process are untouched", async () => {
    const files = await keepalivedFiles();
    const table = await labExec("dir1", "ipvsadm -Sn");
    const misc = { type: "misc", command: ["/nonexistent/check-web", "--vip", vip] };
    const message = await stack.deploy(checkedStack(misc)).then(
      () => "",
      (error: Error) => error.message,
    );
    expect(message).toContain("/nonexistent/check-web is not an executable file on this director");
    expect(message).toContain("nothing was changed");
    expect(await keepalivedFiles()).toBe(files);
    expect(await labExec("dir1", "ipvsadm -Sn")).toBe(table);
  });

  test("sorry server: with every real server down the sorry server answers; one back, it is served normally", async () => {
    // rs2 holds the VIP on lo as the real server of the same VIP's port 8443, and stands by for port 80.
    const web8443 = { ...web, port: 8443 };
    const sorry = { address: "198.51.100.22", forwarding: "dr" };
    await stack.deploy([
      director,
      service("checked-web", web, { healthCheck: httpCheck, sorryServer: sorry }),
      server("checked-rs1", web, "rs1", "198.51.100.21", { serviceChecked: true }),
      service("web-8443", web8443),
      server("web-8443-rs2", web8443, "rs2", "198.51.100.22"),
    ]);
    await waitFor("rs1 in the table", async () => inTable(vip, "198.51.100.21"), 30_000);
    expect(tally(await fetchThroughVip(vip, 80, 3))).toEqual({ rs1: 3 });
    await labExec("rs1", "systemctl stop lab-httpd@80");
    await waitFor("the sorry server in the table", async () => inTable(vip, "198.51.100.22"), 30_000);
    expect(tally(await fetchThroughVip(vip, 80, 3))).toEqual({ rs2: 3 });
    await labExec("rs1", "systemctl start lab-httpd@80");
    await waitFor(
      "rs1 back, the sorry server gone",
      async () => (await inTable(vip, "198.51.100.21")) && !(await inTable(vip, "198.51.100.22")),
      30_000,
    );
    expect(tally(await fetchThroughVip(vip, 80, 3))).toEqual({ rs1: 3 });
  });

  test("notifications: scripts run as a misc check changes its mind and as quorum goes", async () => {
    const log = "/run/lvs-pulumi-test-notify.log";
    // The argument is one word with blanks, a quote and a $: it reaches the program as it is.
    const note = (what: string) => ["/bin/sh", "-c", `echo "$1" >> ${log}`, "sh", what];
    const notes = async () => (await labExec("dir1", `cat ${log} 2>/dev/null || true`)).split("\n").filter(Boolean);
    const seen = (what: string) => waitFor(`"${what}" in ${log}`, async () => (await notes()).includes(what), 30_000);
    await labExec("dir1", `rm -f ${log}`);
    const quorumDown = "quorum down: it's $HOME";
    await stack.deploy([
      director,
      service("checked-web", web, {
        healthCheck: httpCheck,
        notifyQuorumUp: note("quorum up"),
        notifyQuorumDown: note(quorumDown),
      }),
      server("checked-rs1", web, "rs1", "198.51.100.21", {
        serviceChecked: true,
        healthCheck: { type: "misc", command: ["/bin/bash", "-c", "exec 3<>/dev/tcp/$0/80", "198.51.100.21"], ...fast },
        notifyUp: note("rs1 up"),
        notifyDown: note("rs1 down"),
      }),
    ]);
    await waitFor("rs1 in the table (its misc check passed)", async () => inTable(vip, "198.51.100.21"), 30_000);
    await seen("rs1 up");
    await labExec("rs1", "systemctl stop lab-httpd@80");
    await seen("rs1 down");
    await seen(quorumDown);
    expect(await inTable(vip, "198.51.100.21")).toBe(false);
    await labExec(`dir1`, `rm -f ${log}`);
    await labExec("rs1", "systemctl start lab-httpd@80");
    await seen("rs1 up");
    await seen("quorum up");
    await labExec(`dir1`, `rm -f ${log}`);
  });

  test("healthCheck removed under load: the service is handed back to lvs-pulumi's entries without a gap", async () => {
    // rs2 drains when it is deleted below: deleted at once, its requests in flight would be cut (expire_nodest_conn).
    const drained = (d: Declared) =>
      d.name === "checked-rs2" ? { ...d, inputs: { ...d.inputs, drainSeconds: 5 } } : d;
    await stack.deploy(checkedStack(httpCheck).map(drained));
    const allIn = async () =>
      (await inTable(vip, "198.51.100.21")) &&
      (await inTable(vip, "198.51.100.22")) &&
      (await inTable(natVip, "198.51.100.71")) &&
      (await inTable(natVip, "198.51.100.72"));
    await waitFor("every real server in dir1's table", allIn, 30_000);
    const natParts = checkedStack(httpCheck).slice(4);
    const checkerPid = () => labExec("dir1", "systemctl show -p MainPID --value lvs-pulumi-checker");
    const pidBefore = await checkerPid();

    // The web service is handed back (checked-rs2 drained and deleted in the same up) while the NAT service stays
    // checked.
    const load = recordLoad(vip, 80);
    const natLoad = recordLoad(natVip, 80);
    await pause(2000);
    const handedAt = await labClock();
    const summary = await stack.deploy([
      director,
      service("checked-web", web),
      server("checked-rs1", web, "rs1", "198.51.100.21"),
      ...natParts,
    ]);
    await pause(3000);
    const during = outage(await load.stop(), handedAt);
    const natDuring = outage(await natLoad.stop(), handedAt);
    console.log(
      `healthCheck removed under load: ${during.failed} of ${during.failed + during.served} requests failed; ` +
        `meanwhile on the service still checked ${natDuring.failed} of ${natDuring.failed + natDuring.served}`,
    );
    expect(during.failed).toBe(0);
    expect(during.served).toBeGreaterThan(5);
    expect(natDuring.failed).toBe(0);
    expect(summary.updated.sort()).toEqual(
      [urnOf("checked-web", "virtualService"), urnOf("checked-rs1", "realServer")].sort(),
    );
    expect(summary.deleted).toEqual([urnOf("checked-rs2", "realServer")]);
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 4 });
    // Ours again: boot fragments for the service and rs1; the checker restarted without it, still checking NAT.
    expect(await labExec("dir1", "ls /etc/lvs-pulumi/ipvs.d | grep -c .")).toBe("2\n");
    expect(await labExec("dir1", "ls /etc/keepalived/lvs-pulumi-checked")).not.toContain(vip);
    expect(await checkerPid()).not.toBe(pidBefore);
    await labExec("nrs1", "systemctl stop lab-httpd@80");
    await waitFor("nrs1 out of the NAT service", async () => !(await inTable(natVip, "198.51.100.71")), 30_000);
    await labExec("nrs1", "systemctl start lab-httpd@80");
    await waitFor("nrs1 back", async () => inTable(natVip, "198.51.100.71"), 30_000);

    // The last checked service handed back: the checker is stopped and its files go.
    const natLoad2 = recordLoad(natVip, 80);
    await pause(2000);
    const lastAt = await labClock();
    await stack.deploy([
      director,
      service("checked-web", web),
      server("checked-rs1", web, "rs1", "198.51.100.21"),
      service("checked-nat", natWeb),
      ...natParts.slice(1).map((rs) => ({ ...rs, inputs: { ...rs.inputs, serviceChecked: false } })),
    ]);
    await pause(3000);
    const last = outage(await natLoad2.stop(), lastAt);
    console.log(`the last checked service handed back: ${last.failed} of ${last.failed + last.served} requests failed`);
    expect(last.failed).toBe(0);
    expect(await labExec("dir1", "systemctl is-active lvs-pulumi-checker keepalived || true")).toBe(
      "inactive\ninactive\n",
    );
    expect(await labExec("dir1", "ls /etc/keepalived")).toBe("keepalived.conf.sample\n");
    await inRotation(natVip, ["nrs1", "nrs2"]);
  });

  test("destroy removes the checked services and stops their keepalived: the hosts are as before", async () => {
    await stack.destroy();
    expect(await labExec("dir1", "ipvsadm -Sn")).toBe("");
    for (const h of HOSTS) expect(await hostSnapshot(h)).toBe(before[h]);
  });
});
