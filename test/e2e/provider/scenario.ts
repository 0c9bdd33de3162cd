// One forwarding mode end to end, as the provider core's acceptance asks: create -> traffic in the proportions the
// scheduler and weights say -> empty diff -> weight update in place, traffic follows -> identity change replaces ->
// a hand-edited weight shows in read() -> destroy leaves every host as it was.
import { fetchThroughVip, labExec, labTopology, tally } from "../../lab/lab";
import { PropertyMap } from "../../harness/provider-host";
import { changeLogLength, connectionTo, Declared, hostSnapshot, LabStack, urnOf } from "./fixture";

export interface RealServerSpec {
  /** Lab host name; it is also what its HTTP server answers. */
  host: string;
  address: string;
  extra?: PropertyMap;
}

export interface Scenario {
  name: string;
  vip: string;
  forwarding: "dr" | "nat" | "tun" | "fullnat";
  realServers: [RealServerSpec, RealServerSpec];
  /** Hosts whose state must be back to the start after destroy. */
  hosts: string[];
  /** How the provider reaches a lab host; default: root with the lab key (connectionTo). */
  connect?: (host: string) => PropertyMap;
}

/** DR through dir1 to the lab's DR real servers. */
export function drScenario(name: string): Scenario {
  return {
    name,
    vip: labTopology().freeVips.ipv4[0],
    forwarding: "dr",
    realServers: [
      { host: "rs1", address: "198.51.100.21" },
      { host: "rs2", address: "198.51.100.22" },
    ],
    hosts: ["dir1", "rs1", "rs2"],
  };
}

export function describeScenario(s: Scenario): void {
  describe(`${s.name} through the SDK's provider host`, () => {
    let stack: LabStack;
    const before: Record<string, string> = {};
    const connect = s.connect ?? connectionTo;
    const dir1 = connect("dir1");
    const service = { protocol: "tcp", address: s.vip, port: 80 };
    const [a, b] = s.realServers;
    const realServerUrn = (spec: RealServerSpec) => urnOf(`${s.name}-${spec.host}`, "realServer");

    const declare = (weights: [number, number]): Declared[] => [
      { name: "dir1", kind: "director", inputs: { connection: dir1 } },
      { name: `${s.name}-web`, kind: "virtualService", inputs: { directors: [dir1], ...service, scheduler: "wrr" } },
      ...s.realServers.map((rs, i) => ({
        name: `${s.name}-${rs.host}`,
        kind: "realServer" as const,
        inputs: {
          directors: [dir1],
          service,
          address: rs.address,
          weight: weights[i],
          forwarding: s.forwarding,
          host: connect(rs.host),
          ...rs.extra,
        },
      })),
    ];

    beforeAll(async () => {
      for (const h of s.hosts) before[h] = await hostSnapshot(h);
      stack = await LabStack.start();
    });
    afterAll(async () => {
      await stack?.stop();
    });

    test("create: client traffic through the VIP follows the weights (wrr 1:3)", async () => {
      const summary = await stack.deploy(declare([1, 3]));
      expect(summary.created).toHaveLength(4);
      expect(tally(await fetchThroughVip(s.vip, 80, 40))).toEqual({ [a.host]: 10, [b.host]: 30 });
    });

    test("a second deploy with nothing changed: empty diffs, no changing command on any host", async () => {
      const lengths = await Promise.all(s.hosts.map(changeLogLength));
      const summary = await stack.deploy(declare([1, 3]));
      expect(summary.unchanged).toHaveLength(4);
      expect(await Promise.all(s.hosts.map(changeLogLength))).toEqual(lengths);
    });

    test("a weight change updates in place and traffic follows (2:2)", async () => {
      const summary = await stack.deploy(declare([2, 2]));
      expect(summary.updated).toEqual([realServerUrn(a), realServerUrn(b)]);
      expect(summary.replaced).toEqual([]);
      expect(tally(await fetchThroughVip(s.vip, 80, 40))).toEqual({ [a.host]: 20, [b.host]: 20 });
    });

    test("a weight edited by hand on the director shows up in read()", async () => {
      const method = { dr: "-g", tun: "-i", nat: "-m", fullnat: "-m" }[s.forwarding];
      const hostPort = (ip: string) => (ip.includes(":") ? `[${ip}]:80` : `${ip}:80`);
      await labExec("dir1", `ipvsadm -e -t ${hostPort(s.vip)} -r ${hostPort(a.address)} ${method} -w 7`);
      const live = await stack.engine.refresh();
      expect(live[realServerUrn(a)]?.weight).toBe(7);
      expect(live[realServerUrn(b)]?.weight).toBe(2);
    });

    test("an identity change (service port) is a replacement, a scheduler change is not", async () => {
      const urn = urnOf(`${s.name}-web`, "virtualService");
      const olds = stack.outputs(`${s.name}-web`, "virtualService");
      const id = stack.engine.readState()[urn].id;
      expect((await stack.host.diff(urn, id, olds, { ...olds, port: 8080 })).replaces).toEqual(["port"]);
      const edit = await stack.host.diff(urn, id, olds, { ...olds, scheduler: "rr" });
      expect(edit).toMatchObject({ changes: "some", replaces: [] });
    });

    test("destroy leaves the director and the real servers exactly as they were", async () => {
      await stack.destroy();
      for (const h of s.hosts) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });
    });
  });
}
