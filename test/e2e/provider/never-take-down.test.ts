// Issue 9: an apply that changes nothing the user meant to change must not touch live entries, an update replaces
// what it changed and leaves nothing of the old version behind, and refresh sees drift on every director.
import { labExec, labTopology, liveIpvsTable } from "../../lab/lab";
import { connectionKey, ConnectionSpec } from "../../../provider/remote";
import { connectionTo, Declared, hostSnapshot, LabStack, urnOf } from "./fixture";

const HOSTS = ["dir1", "dir2", "rs1", "nrs1"];

describe("updates that take down nothing and leave nothing behind", () => {
  let stack: LabStack;
  const before: Record<string, string> = {};
  const topology = labTopology();
  const vip = topology.freeVips.ipv4[5];
  const web = { protocol: "tcp", address: vip, port: 80 };
  const dir1 = connectionTo("dir1");
  const dir2 = connectionTo("dir2");
  const rs1 = connectionTo("rs1");
  const nrs1 = connectionTo("nrs1");
  // The same machines reached by another address.
  const dir1Again = { ...dir1, host: topology.directors.dir1.dip6 };
  const rs1Again = { ...rs1, host: "2001:db8:1::21" };

  const sysctl = (host: string, key: string) => labExec(host, `sysctl -n ${key}`).then((out) => out.trim());

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    stack = await LabStack.start();
  });
  afterEach(async () => {
    await stack.destroy();
    for (const h of HOSTS) expect(await hostSnapshot(h)).toBe(before[h]);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("a director and a real server host reached by a second name keep their entries and setup", async () => {
    const declare = (director: typeof dir1, host: typeof rs1): Declared[] => [
      { name: "dir1", kind: "director", inputs: { connection: director } },
      { name: "web", kind: "virtualService", inputs: { directors: [director], ...web } },
      {
        name: "web-rs1",
        kind: "realServer",
        inputs: { directors: [director], service: web, address: "198.51.100.21", host },
      },
    ];
    await stack.deploy(declare(dir1, rs1));
    const table = await liveIpvsTable("dir1");
    const setup = async () => ({
      dir1: await hostSnapshot("dir1"),
      rs1: await hostSnapshot("rs1"),
      claims: await labExec("dir1", "ls /etc/lvs-pulumi/claims.d; echo; ls /etc/lvs-pulumi/ipvs.d"),
      rs1Claims: await labExec("rs1", "ls /etc/lvs-pulumi/claims.d"),
    });
    const deployed = await setup();
    expect(table).toContain("198.51.100.21");
    await stack.deploy(declare(dir1Again, rs1Again));
    expect(await liveIpvsTable("dir1")).toBe(table);
    expect(await setup()).toEqual(deployed);
  });

  test("bindVip true -> false releases the VIP and its claim on the director", async () => {
    const declare = (bindVip: boolean): Declared[] => [
      { name: "dir1", kind: "director", inputs: { connection: dir1 } },
      { name: "web", kind: "virtualService", inputs: { directors: [dir1], ...web, bindVip } },
    ];
    await stack.deploy(declare(true));
    expect(await labExec("dir1", "ip -o addr show")).toContain(`${vip}/32`);
    await stack.deploy(declare(false));
    expect(await labExec("dir1", "ip -o addr show")).not.toContain(`${vip}/32`);
    // Only the Director resource's own claim is left (one per owner: director_<tag of its URN>.json).
    expect(await labExec("dir1", "ls /etc/lvs-pulumi/claims.d")).toMatch(/^director_[0-9a-f]{12}\.json\n$/);
  });

  test("a changed claimed value (expireNodestConn, a NAT directorAddress) replaces its own claim", async () => {
    const declare = (expireNodestConn: boolean, directorAddress: string): Declared[] => [
      { name: "dir1", kind: "director", inputs: { connection: dir1, sysctls: { expireNodestConn } } },
      { name: "web", kind: "virtualService", inputs: { directors: [dir1], ...web } },
      {
        name: "web-nrs1",
        kind: "realServer",
        inputs: {
          directors: [dir1],
          service: web,
          address: "198.51.100.71",
          forwarding: "nat",
          directorAddress,
          host: nrs1,
        },
      },
    ];
    await stack.deploy(declare(true, topology.directors.dir1.dip.nat));
    expect(await sysctl("dir1", "net.ipv4.vs.expire_nodest_conn")).toBe("1");
    await stack.deploy(declare(false, topology.directors.dir2.dip.nat));
    expect(await sysctl("dir1", "net.ipv4.vs.expire_nodest_conn")).toBe("0");
    expect(await labExec("nrs1", "ip route show default")).toContain(`via ${topology.directors.dir2.dip.nat}`);
  });

  test("a new fullnat snatSource removes the old SNAT rule", async () => {
    const declare = (snatSource: string): Declared[] => [
      { name: "dir1", kind: "director", inputs: { connection: dir1 } },
      { name: "web", kind: "virtualService", inputs: { directors: [dir1], ...web } },
      {
        name: "web-nrs1",
        kind: "realServer",
        inputs: { directors: [dir1], service: web, address: "198.51.100.71", forwarding: "fullnat", snatSource },
      },
    ];
    await stack.deploy(declare(topology.directors.dir1.dip.nat));
    const rules = () => labExec("dir1", "iptables -t nat -S POSTROUTING | grep -- '-j SNAT' || true");
    expect(await rules()).toContain(`--to-source ${topology.directors.dir1.dip.nat}`);
    await stack.deploy(declare(topology.directors.dir1.dip.lan));
    const after = await rules();
    expect(after).toContain(`--to-source ${topology.directors.dir1.dip.lan}`);
    expect(after).not.toContain(`--to-source ${topology.directors.dir1.dip.nat}`);
  });

  test("refresh sees a hand edit on the second director of a pair", async () => {
    const directors = [dir1, dir2];
    await stack.deploy([
      { name: "dir1", kind: "director", inputs: { connection: dir1 } },
      { name: "dir2", kind: "director", inputs: { connection: dir2 } },
      { name: "web", kind: "virtualService", inputs: { directors, ...web, bindVip: false, scheduler: "rr" } },
      {
        name: "web-rs1",
        kind: "realServer",
        inputs: { directors, service: web, address: "198.51.100.21", weight: 2 },
      },
    ]);
    await labExec("dir2", `ipvsadm -e -t ${vip}:80 -r 198.51.100.21:80 -g -w 7; ipvsadm -E -t ${vip}:80 -s wlc`);
    const live = await stack.engine.refresh();
    expect(live[urnOf("web-rs1", "realServer")]?.weight).toBe(7);
    expect(live[urnOf("web", "virtualService")]?.scheduler).toBe("wlc");
  });

  test("refresh sees a real server deleted by hand from one director of two; the next apply adds it back", async () => {
    const directors = [dir1, dir2];
    const declared: Declared[] = [
      { name: "dir1", kind: "director", inputs: { connection: dir1 } },
      { name: "dir2", kind: "director", inputs: { connection: dir2 } },
      { name: "web", kind: "virtualService", inputs: { directors, ...web, bindVip: false } },
      { name: "web-rs1", kind: "realServer", inputs: { directors, service: web, address: "198.51.100.21" } },
    ];
    await stack.deploy(declared);
    await labExec("dir2", `ipvsadm -d -t ${vip}:80 -r 198.51.100.21:80`);
    const live = await stack.engine.refresh();
    expect(live[urnOf("web-rs1", "realServer")]?.missingFrom).toEqual([
      connectionKey(dir2 as unknown as ConnectionSpec),
    ]);
    expect(live[urnOf("web", "virtualService")]?.missingFrom).toBeUndefined();
    const repaired = await stack.deploy(declared);
    expect(repaired.updated).toContain(urnOf("web-rs1", "realServer"));
    expect(await liveIpvsTable("dir2")).toContain("-r 198.51.100.21:80");
    expect(stack.outputs("web-rs1", "realServer").missingFrom).toBeUndefined();
  });
});
