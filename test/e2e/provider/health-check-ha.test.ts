// Health checks in an HA pair: both directors run the checks (one keepalived each: VRRP and checkers), so they agree
// on health; a failover while a real server is down does not bring it back into rotation. Figures are printed.
import { labClock } from "../../lab/failover";
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
  const holdsVip = async (director: string) =>
    (await labExec(director, "ip -o addr show dev eth0")).includes(` ${vip}/`);

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

    // Failover: the master's keepalived stops (its entries stay: --dont-release-ipvs); dir2 takes the VIP.
    await labExec("dir1", "systemctl stop keepalived");
    await waitFor("dir2 holds the VIP", () => holdsVip("dir2"), 30_000);
    expect(await inTable("dir2", "198.51.100.21")).toBe(false);
    expect(tally(await fetchThroughVip(vip, 80, 6))).toEqual({ rs2: 6 });
    // dir1 back (it preempts): its checker starts with rs1 down (alpha), so rs1 stays out there too.
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

  test("destroy: keepalived stopped, every file gone, hosts as before", async () => {
    await stack.destroy();
    for (const h of HOSTS) expect(await hostSnapshot(h)).toBe(before[h]);
  });
});
