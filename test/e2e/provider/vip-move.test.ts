// A VIP bound on one director, then on another (a service moved, or a single director taking over after an HA pair):
// the client's router still has the first director's MAC for it. The new holder announces the VIP (gratuitous ARP,
// unsolicited NA), so the first request after the move is served, not lost until the router's cache expires.
import { fetchThroughVip, labExec, labTopology, tally, waitFor } from "../../lab/lab";
import { connectionTo, Declared, hostSnapshot, LabStack } from "./fixture";

const HOSTS = ["dir1", "dir2", "rs1"];

describe("a VIP that moves to another director", () => {
  let stack: LabStack;
  const topology = labTopology();
  const vips = [topology.freeVips.ipv4[7], topology.freeVips.ipv6[2]];
  const before: Record<string, string> = {};
  const declare = (director: string): Declared[] => {
    const on = connectionTo(director);
    return [
      { name: director, kind: "director", inputs: { connection: on } },
      ...vips.flatMap((vip, i): Declared[] => {
        const service = { protocol: "tcp", address: vip, port: 80 };
        return [
          { name: `move-${i}`, kind: "virtualService", inputs: { directors: [on], ...service, scheduler: "rr" } },
          {
            name: `move-${i}-rs1`,
            kind: "realServer",
            inputs: {
              directors: [on],
              service,
              address: i === 0 ? "198.51.100.21" : "2001:db8:1::21",
              host: connectionTo("rs1"),
            },
          },
        ];
      }),
    ];
  };
  const routerNeighbour = (vip: string) => labExec("router", `ip neigh show ${vip} | awk '{print $5}'`);
  const mac = (host: string) => labExec(host, "cat /sys/class/net/eth0/address");

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("the first requests after the move are served through the new director", async () => {
    await stack.deploy(declare("dir2"));
    for (const vip of vips) expect(tally(await fetchThroughVip(vip, 80, 2))).toEqual({ rs1: 2 });
    for (const vip of vips) expect(await routerNeighbour(vip)).toBe(await mac("dir2"));
    await stack.destroy();

    await stack.deploy(declare("dir1"));
    // With no traffic, nothing but the announcement changes the router's entry (an IPv6 VIP announces itself once
    // duplicate address detection is done, about a second after it was added).
    const dir1Mac = await mac("dir1");
    for (const vip of vips) {
      const tookMs = await waitFor(
        `the router to learn ${vip} at dir1`,
        async () => (await routerNeighbour(vip)) === dir1Mac,
        10_000,
      );
      console.log(`vip-move: the router had ${vip} at dir1's MAC ${tookMs} ms after the apply`);
    }
    for (const vip of vips) expect(tally(await fetchThroughVip(vip, 80, 2))).toEqual({ rs1: 2 });
    await stack.destroy();
    for (const h of HOSTS) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });
  }, 600_000);
});
