// Issue 9's lab proofs: (a) the same topology written differently redeploys under steady load with no failed request
// and no changing command on any host; (b) a service and a VIP made by hand before the stack survive a create that
// fails half-way and a create/destroy cycle of an overlapping topology.
import { fetchThroughVip, labExec, labTopology, liveIpvsTable, steadyLoad, tally } from "../../lab/lab";
import { PropertyMap } from "../../harness/provider-host";
import { changeLogLength, connectionTo, Declared, hostSnapshot, LabStack } from "./fixture";

const HOSTS = ["dir1", "rs1", "rs2"];

describe("never take down what works", () => {
  let stack: LabStack;
  const before: Record<string, string> = {};
  const topology = labTopology();
  const dir1 = connectionTo("dir1");

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("(a) an unchanged topology written differently: 0 failed requests, no changing command", async () => {
    const vip = topology.freeVips.ipv4[6];
    const vip6 = topology.freeVips.ipv6[1];
    const declare = (director: PropertyMap, written: "plain" | "spelled"): Declared[] => {
      const spelled = written === "spelled";
      const v6 = (address: string) => (spelled ? address.toUpperCase() : address);
      const web = { protocol: "tcp", address: vip, port: 80 };
      const web6 = { protocol: "tcp", address: v6(vip6), port: 80 };
      return [
        { name: "dir1", kind: "director", inputs: { connection: director } },
        { name: "web", kind: "virtualService", inputs: { directors: [director], ...web, scheduler: "rr" } },
        { name: "web6", kind: "virtualService", inputs: { directors: [director], ...web6, scheduler: "rr" } },
        ...["rs1", "rs2"].flatMap((rs, i): Declared[] => [
          {
            name: `web-${rs}`,
            kind: "realServer",
            inputs: {
              directors: [director],
              service: web,
              address: `198.51.100.2${i + 1}`,
              ...(spelled ? { port: 80 } : {}),
              host: connectionTo(rs),
            },
          },
          {
            name: `web6-${rs}`,
            kind: "realServer",
            inputs: {
              directors: [director],
              service: web6,
              address: v6(`2001:db8:1::2${i + 1}`),
              ...(spelled ? { port: 80 } : {}),
              host: connectionTo(rs),
            },
          },
        ]),
      ];
    };
    await stack.deploy(declare(dir1, "plain"));
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 2, rs2: 2 });
    expect(tally(await fetchThroughVip(vip6, 80, 4))).toEqual({ rs1: 2, rs2: 2 });
    const logs = await Promise.all(HOSTS.map(changeLogLength));
    const table = await liveIpvsTable("dir1");

    // dir1 by its IPv6 address: the same machine by a second name.
    const seconds = 120;
    const load = Promise.all([steadyLoad(vip, 80, seconds), steadyLoad(vip6, 80, seconds)]);
    const started = Date.now();
    await stack.deploy(declare({ ...dir1, host: topology.directors.dir1.dip6 }, "spelled"));
    const applySeconds = (Date.now() - started) / 1000;
    const [load4, load6] = await load;
    console.log(
      `rewritten apply took ${applySeconds.toFixed(1)} s; load v4 ${JSON.stringify(load4)} v6 ${JSON.stringify(load6)}`,
    );
    expect(applySeconds).toBeLessThan(seconds);
    expect(load4.failed + load6.failed).toBe(0);
    expect(load4.ok).toBeGreaterThan(0);
    expect(load6.ok).toBeGreaterThan(0);
    expect(await Promise.all(HOSTS.map(changeLogLength))).toEqual(logs);
    expect(await liveIpvsTable("dir1")).toBe(table);

    await stack.destroy();
    for (const h of HOSTS) expect(await hostSnapshot(h)).toBe(before[h]);
  });

  test("(b) a service and a VIP made by hand survive a failed create and an overlapping create/destroy", async () => {
    const vip = topology.freeVips.ipv4[8];
    const other = topology.freeVips.ipv4[4];
    const handMade = `${vip}:80`;
    await labExec(
      "dir1",
      `ip addr add ${vip}/32 dev eth0 && ipvsadm -A -t ${handMade} -s rr && ipvsadm -a -t ${handMade} -r 198.51.100.22:80 -g -w 3`,
    );
    try {
      const handSetup = await hostSnapshot("dir1");
      const base: Declared[] = [
        { name: "dir1", kind: "director", inputs: { connection: dir1 } },
        {
          name: "other",
          kind: "virtualService",
          inputs: { directors: [dir1], protocol: "tcp", address: other, port: 80 },
        },
        // The same VIP on another port: our claim on the hand-made VIP.
        {
          name: "tls",
          kind: "virtualService",
          inputs: { directors: [dir1], protocol: "tcp", address: vip, port: 443 },
        },
        {
          name: "tls-rs1",
          kind: "realServer",
          inputs: {
            directors: [dir1],
            service: { protocol: "tcp", address: vip, port: 443 },
            address: "198.51.100.21",
          },
        },
      ];
      const clash: Declared = {
        name: "web",
        kind: "virtualService",
        inputs: { directors: [dir1], protocol: "tcp", address: vip, port: 80, scheduler: "wlc" },
      };
      // Fails half-way: the first resources are created, the service that exists already is refused.
      await expect(stack.deploy([...base, clash])).rejects.toThrow(/already exists and was not created by lvs-pulumi/);
      expect(await liveIpvsTable("dir1")).toContain(`-a -t ${handMade} -r 198.51.100.22:80 -g -w 3`);
      expect(await labExec("dir1", "ip -o addr show dev eth0")).toContain(`${vip}/32`);
      // The overlapping topology without the clash: created and destroyed; the hand-made entries stay.
      await stack.deploy(base);
      await stack.destroy();
      expect(await hostSnapshot("dir1")).toBe(handSetup);
    } finally {
      await labExec("dir1", `ipvsadm -D -t ${handMade}; ip addr del ${vip}/32 dev eth0; true`);
    }
    expect(await hostSnapshot("dir1")).toBe(before.dir1);
  });
});
