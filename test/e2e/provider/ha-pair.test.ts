// An HA pair on dir1 (primary) and dir2 (backup): keepalived moves the VIPs, the IPVS table is on both, connections
// are synced to the backup. Proven with real packets and a real reboot of the master.
import { fetchThroughVip, labExec, labTopology, rebootHost, tally, waitFor } from "../../lab/lab";
import { changeLogLength, connectionTo, Declared, hostSnapshot, LabStack } from "./fixture";

const HOSTS = ["dir1", "dir2", "rs1", "rs2"];

describe("HA pair: keepalived failover with connection sync", () => {
  let stack: LabStack;
  const vip = labTopology().freeVips.ipv4[9];
  const vip6 = labTopology().freeVips.ipv6[4];
  const dir1 = connectionTo("dir1");
  const dir2 = connectionTo("dir2");
  const directors = [dir1, dir2];
  const web = { protocol: "tcp", address: vip, port: 80 };
  const web6 = { protocol: "tcp", address: vip6, port: 80 };
  const before: Record<string, string> = {};

  const declare = (pair: Record<string, unknown> = {}): Declared[] => [
    { name: "dir1", kind: "director", inputs: { connection: dir1 } },
    { name: "dir2", kind: "director", inputs: { connection: dir2 } },
    {
      name: "pair",
      kind: "haPair",
      inputs: {
        primary: { connection: dir1, interface: "eth0" },
        backup: { connection: dir2, interface: "eth0" },
        virtualRouterId: 51,
        vips: [vip, vip6],
        ...pair,
      },
    },
    { name: "ha-web", kind: "virtualService", inputs: { directors, ...web, scheduler: "rr", bindVip: false } },
    { name: "ha-web6", kind: "virtualService", inputs: { directors, ...web6, scheduler: "rr", bindVip: false } },
    ...Object.entries({ rs1: "198.51.100.21", rs2: "198.51.100.22" }).map(([rs, address]): Declared => ({
      name: `ha-web-${rs}`,
      kind: "realServer",
      inputs: { directors, service: web, address, host: connectionTo(rs) },
    })),
    {
      name: "ha-web6-rs1",
      kind: "realServer",
      inputs: { directors, service: web6, address: "2001:db8:1::21", host: connectionTo("rs1") },
    },
  ];
  const holds = async (host: string, address: string) =>
    (await labExec(host, "ip -o addr show dev eth0")).includes(` ${address}/`);
  const syncDaemon = (host: string) => labExec(host, "ipvsadm -L --daemon");
  const masterOutput = () => stack.outputs("pair", "haPair").master;

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("create: the primary holds both VIPs, the backup none; traffic flows; sync daemons run", async () => {
    const summary = await stack.deploy(declare());
    expect(summary.created).toHaveLength(8);
    expect(masterOutput()).toBe(dir1.host);
    expect([await holds("dir1", vip), await holds("dir1", vip6)]).toEqual([true, true]);
    expect([await holds("dir2", vip), await holds("dir2", vip6)]).toEqual([false, false]);
    expect(tally(await fetchThroughVip(vip, 80, 20))).toEqual({ rs1: 10, rs2: 10 });
    expect(tally(await fetchThroughVip(vip6, 80, 4))).toEqual({ rs1: 4 });
    expect(await syncDaemon("dir1")).toContain("master sync daemon (mcast=eth0, syncid=51,");
    expect(await syncDaemon("dir2")).toContain("backup sync daemon (mcast=eth0, syncid=51,");
  }, 900_000);

  test("connection sync: the backup knows the connections the master forwarded", async () => {
    await fetchThroughVip(vip, 80, 6);
    await waitFor(
      "synced connections on dir2",
      async () => (await labExec("dir2", "ipvsadm -Lnc")).includes(`${vip}:80`),
      20_000,
    );
    const synced = (await labExec("dir2", "ipvsadm -Lnc")).split("\n").filter((l) => l.includes(`${vip}:80`));
    expect(synced.length).toBeGreaterThan(0);
  }, 120_000);

  test("the master reboots: the backup takes the VIPs and serves; the primary takes them back", async () => {
    const reboot = rebootHost("dir1");
    const failover = await waitFor("the VIP on dir2", () => holds("dir2", vip), 60_000);
    const answers = tally(await fetchThroughVip(vip, 80, 6));
    expect(answers).toEqual({ rs1: 3, rs2: 3 });
    const served = async () =>
      Number((await labExec("dir2", `ipvsadm -Ln --stats -t ${vip}:80 | awk '$1 == "TCP" {print $3}'`)).trim());
    // dir2 forwarded nothing before. The router may keep sending to the old master's MAC (which still forwards while
    // it shuts down) until dir2's gratuitous ARP is taken, so requests go on until dir2 has forwarded some.
    await waitFor(
      "dir2 forwarding the VIP's traffic",
      async () => (await fetchThroughVip(vip, 80, 2)) && (await served()) > 0,
      30_000,
    );
    expect(await served()).toBeGreaterThan(0);
    const downFor = await reboot;
    // Preemption: the returning primary (its table replayed first at boot) takes the VIPs back.
    const back = await waitFor(
      "the VIP back on dir1",
      async () => (await holds("dir1", vip)) && !(await holds("dir2", vip)),
      90_000,
    );
    process.stdout.write(
      `ha-failover: VIP on backup ${failover} ms after reboot began; primary back ${back} ms after its reboot (${downFor} ms)\n`,
    );
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 2, rs2: 2 });
    await stack.engine.refresh();
    expect(masterOutput()).toBe(dir1.host);
  }, 600_000);

  test("a second deploy changes nothing on any host", async () => {
    const lengths = await Promise.all(HOSTS.map(changeLogLength));
    const summary = await stack.deploy(declare());
    expect(summary.unchanged).toHaveLength(8);
    expect(await Promise.all(HOSTS.map(changeLogLength))).toEqual(lengths);
  }, 600_000);

  test("refresh finds a stopped keepalived and a hand-edited config; the next deploy repairs both", async () => {
    await labExec("dir2", "systemctl stop keepalived");
    await labExec("dir1", "sed -i 's/advert_int 1/advert_int 3/' /etc/keepalived/keepalived.conf");
    await stack.engine.refresh();
    const live = stack.outputs("pair", "haPair").keepalived as Record<string, string>;
    expect(live.backup).toMatch(/ stopped$/);
    const summary = await stack.deploy(declare());
    expect(summary.updated.map((urn) => urn.split("::").pop())).toEqual(["pair"]);
    expect((await labExec("dir2", "systemctl is-active keepalived")).trim()).toBe("active");
    expect(await labExec("dir1", "grep advert_int /etc/keepalived/keepalived.conf")).toContain("advert_int 1");
    await stack.engine.refresh();
    expect(await stack.deploy(declare())).toMatchObject({ updated: [], created: [], deleted: [] });
    expect(await holds("dir1", vip)).toBe(true);
  }, 600_000);

  test("a changed advert interval reloads keepalived in place: same process, the VIP never moves", async () => {
    const mainPid = () => labExec("dir1", "systemctl show -p MainPID --value keepalived");
    const pid = await mainPid();
    const summary = await stack.deploy(declare({ advertIntervalSeconds: 2 }));
    expect(summary.updated.map((urn) => urn.split("::").pop())).toEqual(["pair"]);
    expect(await mainPid()).toBe(pid);
    for (const h of ["dir1", "dir2"]) {
      expect(await labExec(h, "grep advert_int /etc/keepalived/keepalived.conf")).toContain("advert_int 2");
    }
    expect(await holds("dir1", vip)).toBe(true);
    expect(await holds("dir2", vip)).toBe(false);
  }, 600_000);

  test("destroy leaves every host as it was: no keepalived config, no VIP, no sync daemon", async () => {
    await stack.destroy();
    for (const h of HOSTS) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });
  }, 600_000);
});
