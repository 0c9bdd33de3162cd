// Health checks in an HA pair: both directors run the checks (each its own checker keepalived beside the pair's VRRP
// one), so they agree on health; a failover while a real server is down does not bring it back into rotation; the
// health check removed hands the service back on both without a gap and without moving the VIP. Figures are printed.
import { labClock, outage, recordLoad } from "../../lab/failover";
import { fetchThroughVip, labExec, labRun, labTopology, tally, waitFor } from "../../lab/lab";
import { connectionTo, Declared, hostSnapshot, LabStack } from "./fixture";

const HOSTS = ["dir1", "dir2", "rs1", "rs2"];
const DIRECTORS = ["dir1", "dir2"];

describe("health checks in an HA pair", () => {
  let stack: LabStack;
  const vip = labTopology().freeVips.ipv4[3];
  const dir1 = connectionTo("dir1");
  const dir2 = connectionTo("dir2");
  const directors = [dir1, dir2];
  const web = { protocol: "tcp", address: vip, port: 80 };
  const healthCheck = {
    type: "http",
    intervalSeconds: 1,
    retries: 1,
    delayBeforeRetrySeconds: 1,
    connectTimeoutSeconds: 1,
  };
  const declared: Declared[] = [
    { name: "dir1", kind: "director", inputs: { connection: dir1 } },
    { name: "dir2", kind: "director", inputs: { connection: dir2 } },
    {
      name: "checked-pair",
      kind: "haPair",
      inputs: {
        primary: { connection: dir1, interface: "eth0" },
        backup: { connection: dir2, interface: "eth0" },
        virtualRouterId: 57,
        vips: [vip],
      },
    },
    {
      name: "checked-ha-web",
      kind: "virtualService",
      inputs: { directors, ...web, scheduler: "rr", bindVip: false, healthCheck },
    },
    ...Object.entries({ rs1: "198.51.100.21", rs2: "198.51.100.22" }).map(([rs, address]): Declared => ({
      name: `checked-ha-${rs}`,
      kind: "realServer",
      inputs: { directors, service: web, address, host: connectionTo(rs), serviceChecked: true },
    })),
  ];
  const before: Record<string, string> = {};
  const inTable = async (director: string, rip: string) =>
    (await labExec(director, `ipvsadm -Ln -t ${vip}:80 2>/dev/null || true`)).includes(`${rip}:80`);
  const commandLine = (director: string, unit: string) =>
    labExec(director, `tr '\\0' ' ' < /proc/$(systemctl show -p MainPID --value ${unit})/cmdline`);
  const holdsVip = async (director: string) =>
    (await labExec(director, "ip -o addr show dev eth0")).includes(` ${vip}/`);

  /** Deploys `declaredNow` under steady load through the VIP: the requests from the deploy's start to 3 s after it. */
  const deployUnderLoad = async (declaredNow: Declared[]) => {
    const load = recordLoad(vip, 80);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const at = await labClock();
    const summary = await stack.deploy(declaredNow);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    return { summary, during: outage(await load.stop(), at), at };
  };

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await labRun("rs1", "systemctl start lab-httpd@80");
    for (const director of DIRECTORS) await labRun(director, "systemctl start keepalived");
    await stack?.stop();
  });

  test("both directors check: a dead real server leaves both tables, and a failover does not bring it back", async () => {
    const summary = await stack.deploy(declared);
    expect(summary.created).toHaveLength(6);
    for (const director of DIRECTORS) {
      await waitFor(
        `both real servers on ${director}`,
        async () => (await inTable(director, "198.51.100.21")) && (await inTable(director, "198.51.100.22")),
        30_000,
      );
    }
    expect(await holdsVip("dir1")).toBe(true);
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 2, rs2: 2 });
    // Two keepalived per director: the pair's runs VRRP only, the checked service's its checks only.
    for (const director of DIRECTORS) {
      expect(await commandLine(director, "keepalived")).toMatch(/ --vrrp( |$)/);
      expect(await commandLine(director, "lvs-pulumi-checker")).toMatch(/ --check --dont-release-ipvs /);
    }

    const faultAt = await labClock();
    await labExec("rs1", "systemctl stop lab-httpd@80");
    const leftMs: Record<string, number> = {};
    await Promise.all(
      DIRECTORS.map(async (director) => {
        await waitFor(
          `rs1 out of ${director}'s table`,
          async () => !(await inTable(director, "198.51.100.21")),
          30_000,
        );
        leftMs[director] = (await labClock()) - faultAt;
      }),
    );
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs2: 4 });

    // Failover: the master's keepalived stops (its checker runs on); dir2 takes the VIP.
    await labExec("dir1", "systemctl stop keepalived");
    await waitFor("dir2 holds the VIP", () => holdsVip("dir2"), 30_000);
    expect(await inTable("dir2", "198.51.100.21")).toBe(false);
    expect(tally(await fetchThroughVip(vip, 80, 6))).toEqual({ rs2: 6 });
    // dir1 back (it preempts): its checker still has rs1 down, so rs1 stays out there too.
    await labExec("dir1", "systemctl start keepalived");
    await waitFor("dir1 holds the VIP again", () => holdsVip("dir1"), 30_000);
    expect(tally(await fetchThroughVip(vip, 80, 6))).toEqual({ rs2: 6 });
    expect(await inTable("dir1", "198.51.100.21")).toBe(false);

    const restartAt = await labClock();
    await labExec("rs1", "systemctl start lab-httpd@80");
    const backMs: Record<string, number> = {};
    await Promise.all(
      DIRECTORS.map(async (director) => {
        await waitFor(`rs1 back on ${director}`, () => inTable(director, "198.51.100.21"), 30_000);
        backMs[director] = (await labClock()) - restartAt;
      }),
    );
    console.log(
      `HA pair health: rs1 left dir1's table after ${leftMs.dir1} ms and dir2's after ${leftMs.dir2} ms; ` +
        `through a failover and back it got no request; started again it was back after ${backMs.dir1} ms (dir1) ` +
        `and ${backMs.dir2} ms (dir2)`,
    );
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 2, rs2: 2 });
  });

  test("directors set up by an older lvs-pulumi (checks inside the pair's keepalived): the next up moves them", async () => {
    // The older layout, made by hand: keepalived.conf includes the checked folder, the drop-in starts keepalived with
    // --dont-release-ipvs instead of --vrrp, no checker of their own. The backup first, then the master (a restart).
    for (const director of ["dir2", "dir1"]) {
      await labExec(
        director,
        `set -e
         printf '\\ninclude /etc/keepalived/lvs-pulumi-checked/*.conf\\n' >> /etc/keepalived/keepalived.conf
         sed -i 's/ --vrrp / --dont-release-ipvs /' /etc/systemd/system/keepalived.service.d/lvs-pulumi.conf
         systemctl stop lvs-pulumi-checker; systemctl disable --quiet lvs-pulumi-checker
         rm /etc/keepalived/lvs-pulumi-checker.conf /etc/systemd/system/lvs-pulumi-checker.service
         systemctl daemon-reload; systemctl restart keepalived`,
      );
      expect(await commandLine(director, "keepalived")).toContain(" --dont-release-ipvs");
    }
    await waitFor("dir1 holds the VIP", () => holdsVip("dir1"), 30_000);
    const pairPid = await labExec("dir1", "systemctl show -p MainPID --value keepalived");

    await stack.engine.refresh();
    const { summary, during } = await deployUnderLoad(declared);
    console.log(
      `older layout moved to the checker under load: ${during.failed} of ${during.failed + during.served} requests ` +
        `failed (the reload deletes the checked entries until the checker's restart adds them)`,
    );
    expect(summary.updated).toEqual(expect.arrayContaining([expect.stringContaining("checked-pair")]));
    // The pair's keepalived was reloaded, not restarted: the VIP stayed.
    expect(await labExec("dir1", "systemctl show -p MainPID --value keepalived")).toBe(pairPid);
    expect(await holdsVip("dir1")).toBe(true);
    for (const director of DIRECTORS) {
      expect(await labExec(director, "grep -c lvs-pulumi-checked /etc/keepalived/keepalived.conf || true")).toBe("0\n");
      expect(await commandLine(director, "lvs-pulumi-checker")).toMatch(/ --check --dont-release-ipvs /);
      expect((await inTable(director, "198.51.100.21")) && (await inTable(director, "198.51.100.22"))).toBe(true);
    }
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 2, rs2: 2 });
  });

  test("healthCheck removed under load: both directors hand the service back, no request fails, the VIP stays", async () => {
    const pairPids = async () =>
      Promise.all(DIRECTORS.map((d) => labExec(d, "systemctl show -p MainPID --value keepalived")));
    const pidsBefore = await pairPids();
    const unchecked = declared.map((d): Declared => {
      if (d.kind === "virtualService") return { ...d, inputs: { ...d.inputs, healthCheck: undefined } };
      if (d.kind === "realServer") return { ...d, inputs: { ...d.inputs, serviceChecked: false } };
      return d;
    });
    const { summary, during, at: handedAt } = await deployUnderLoad(unchecked);
    const dir2Master = await labExec(
      "dir2",
      `journalctl -q --no-pager -u keepalived -o cat --since @${Math.floor(handedAt / 1000)} | grep -c 'Entering MASTER' || true`,
    );
    console.log(
      `HA pair, healthCheck removed under load: ${during.failed} of ${during.failed + during.served} requests failed; ` +
        `dir2 became master ${dir2Master.trim()} times`,
    );
    expect(during.failed).toBe(0);
    expect(during.served).toBeGreaterThan(5);
    expect(summary.updated).toHaveLength(3);
    expect(dir2Master.trim()).toBe("0");
    expect(await pairPids()).toEqual(pidsBefore);
    expect(await holdsVip("dir1")).toBe(true);
    for (const director of DIRECTORS) {
      // Ours again on both: boot fragments for the service and both real servers; no checked service, no checker.
      expect(await labExec(director, "ls /etc/lvs-pulumi/ipvs.d | grep -c .")).toBe("3\n");
      expect(await labExec(director, "systemctl is-active lvs-pulumi-checker || true")).toBe("inactive\n");
      expect((await inTable(director, "198.51.100.21")) && (await inTable(director, "198.51.100.22"))).toBe(true);
    }
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 2, rs2: 2 });
  });

  test("destroy: keepalived stopped, every file gone, hosts as before", async () => {
    await stack.destroy();
    for (const h of HOSTS) expect(await hostSnapshot(h)).toBe(before[h]);
  });
});
