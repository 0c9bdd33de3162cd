// Issue 24: what a resource puts on a host is owned by that resource (its URN), not by the entry's key. A rename
// (create under the new name, then delete of the old one) keeps serving, another stack cannot take a service over, and
// a create that fails undoes only what it added.
import { labExec, labTopology, liveIpvsTable } from "../../lab/lab";
import { labClock, outage, recordLoad } from "../../lab/failover";
import { connectionTo, Declared, hostSnapshot, LabStack, urnOf } from "./fixture";

const HOSTS = ["dir1", "dir2", "rs1", "rs2"];

describe("ownership by resource identity", () => {
  let stack: LabStack;
  const before: Record<string, string> = {};
  const vip = labTopology().freeVips.ipv4[10];
  const web = { protocol: "tcp", address: vip, port: 80 };
  const dir1 = connectionTo("dir1");

  /** A DR service on dir1 holding its VIP, with rs1 and rs2 set up by us; `names` as a topology key would name them. */
  const declare = (names: { service: string; rs1: string; rs2: string }, aliases?: typeof names): Declared[] => [
    { name: "dir1", kind: "director", inputs: { connection: dir1 } },
    {
      name: names.service,
      kind: "virtualService",
      inputs: { directors: [dir1], ...web, scheduler: "rr" },
      aliases: aliases && [aliases.service],
    },
    ...(["rs1", "rs2"] as const).map((host, i) => ({
      name: names[host],
      kind: "realServer" as const,
      inputs: { directors: [dir1], service: web, address: `198.51.100.2${i + 1}`, host: connectionTo(host) },
      aliases: aliases && [aliases[host]],
    })),
  ];
  const onHosts = async () => ({
    table: await liveIpvsTable("dir1"),
    vip: (await labExec("dir1", "ip -o addr show dev eth0")).includes(` ${vip}/32`),
    rs1: await hostSnapshot("rs1"),
    rs2: await hostSnapshot("rs2"),
  });

  /** Deploys under steady load through the VIP: what the clients saw from the deploy's start to 2 s after it. */
  const deployUnderLoad = async (what: string, declared: Declared[]) => {
    const load = recordLoad(vip, 80);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const at = await labClock();
    const summary = await stack.deploy(declared);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const seen = outage(await load.stop(), at);
    console.log(`ownership: ${what} under load: ${seen.failed} failed of ${seen.failed + seen.served} requests`);
    return { summary, seen };
  };

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

  test("renaming a RealServer, then a service key (its VirtualService and RealServers), then with aliases: 0 failed requests, nothing changed on any host", async () => {
    const first = { service: "web", rs1: "web-rs1", rs2: "web-rs2" };
    await stack.deploy(declare(first));
    const deployed = await onHosts();
    expect(deployed.vip).toBe(true);
    expect(deployed.table).toContain("-r 198.51.100.22:80");

    const rsRenamed = { ...first, rs1: "web-rs1-renamed" };
    const one = await deployUnderLoad("RealServer renamed", declare(rsRenamed));
    expect(one.summary.created).toEqual([urnOf("web-rs1-renamed", "realServer")]);
    expect(one.summary.deleted).toEqual([urnOf("web-rs1", "realServer")]);
    expect(one.seen.failed).toBe(0);
    expect(one.seen.served).toBeGreaterThan(10);
    expect(await onHosts()).toEqual(deployed);

    // A key of lvs:topology renamed: the service and its real servers all get new names.
    const keyRenamed = { service: "shop", rs1: "shop-rs1", rs2: "shop-rs2" };
    const key = await deployUnderLoad("service key renamed", declare(keyRenamed));
    expect(key.summary.created).toHaveLength(3);
    expect(key.summary.deleted).toHaveLength(3);
    expect(key.seen.failed).toBe(0);
    expect(await onHosts()).toEqual(deployed);
    const again = await stack.deploy(declare(keyRenamed));
    expect([...again.created, ...again.updated, ...again.replaced, ...again.deleted]).toEqual([]);

    // With aliases the engine keeps the resources: nothing is created, deleted or run on a host.
    const aliased = { service: "cart", rs1: "cart-rs1", rs2: "cart-rs2" };
    const viaAliases = await deployUnderLoad("service key renamed with aliases", declare(aliased, keyRenamed));
    expect([...viaAliases.summary.created, ...viaAliases.summary.deleted]).toEqual([]);
    expect(viaAliases.seen.failed).toBe(0);
    expect(await onHosts()).toEqual(deployed);
    // The last owner's delete (afterEach's destroy) removes everything: the host snapshots equal the first ones.
  });

  test("a second stack declaring the same VIP:port fails naming the first stack's resource; nothing changes", async () => {
    await stack.deploy(declare({ service: "web", rs1: "web-rs1", rs2: "web-rs2" }));
    const deployed = { table: await liveIpvsTable("dir1"), dir1: await hostSnapshot("dir1") };
    const other = await LabStack.start("staging");
    try {
      const service = { directors: [dir1], ...web, scheduler: "wlc" };
      await expect(other.deploy([{ name: "web", kind: "virtualService", inputs: service }])).rejects.toThrow(
        `virtual service tcp:${vip}:80 is owned by ${urnOf("web", "virtualService")} (stack lvs-pulumi/test)`,
      );
      expect({ table: await liveIpvsTable("dir1"), dir1: await hostSnapshot("dir1") }).toEqual(deployed);
      // The failed stack has nothing in state: its destroy touches nothing.
      await other.destroy();
      expect(await liveIpvsTable("dir1")).toBe(deployed.table);
    } finally {
      await other.stop();
    }
  });

  test("adopt: true of a hand-made service on two directors, the second unreachable: the create fails and the hand-made service with its real servers stays live", async () => {
    const handMade =
      `ipvsadm -A -t ${vip}:80 -s rr && ipvsadm -a -t ${vip}:80 -r 198.51.100.21:80 -g && ` +
      `ipvsadm -a -t ${vip}:80 -r 198.51.100.22:80 -g`;
    await labExec("dir1", handMade);
    try {
      const live = await liveIpvsTable("dir1");
      // dir2 by a port nothing listens on: the connection fails at once.
      const unreachable = { ...connectionTo("dir2"), port: 2, dialErrorLimit: 1, perDialTimeout: 5 };
      const adopted = { directors: [dir1, unreachable], ...web, scheduler: "rr", bindVip: false, adopt: true };
      await expect(stack.deploy([{ name: "legacy", kind: "virtualService", inputs: adopted }])).rejects.toThrow(
        /198\.51\.100\.12/,
      );
      expect(await liveIpvsTable("dir1")).toBe(live);
      // Only what the create added went: no file of ours is left for the service.
      expect(await labExec("dir1", "ls /etc/lvs-pulumi/ipvs.d /etc/lvs-pulumi/owners.d 2>/dev/null || true")).toBe("");
    } finally {
      await labExec("dir1", `ipvsadm -D -t ${vip}:80 || true`);
    }
  });
});
