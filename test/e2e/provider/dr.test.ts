// DR end to end: the real provider through the SDK's provider host, real IPVS in the lab, real client traffic.
import { fetchThroughVip, labExec, labTopology, tally } from "../../lab/lab";
import { changeLogLength, connectionTo, Declared, hostSnapshot, LabStack, urnOf } from "./fixture";

describe("DR through the provider host", () => {
  let stack: LabStack;
  const vip = labTopology().freeVips.ipv4[0];
  const before: Record<string, string> = {};
  const hosts = ["dir1", "rs1", "rs2"];

  beforeAll(async () => {
    for (const h of hosts) before[h] = await hostSnapshot(h);
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const dir1 = connectionTo("dir1");
  const service = { protocol: "tcp", address: vip, port: 80 };
  const declare = (weights: [number, number], port = 80): Declared[] => [
    { name: "dir1", kind: "director", inputs: { connection: dir1 } },
    { name: "web", kind: "virtualService", inputs: { directors: [dir1], ...service, port, scheduler: "wrr" } },
    ...(["rs1", "rs2"] as const).map((rs, i) => ({
      name: rs,
      kind: "realServer" as const,
      inputs: {
        directors: [dir1],
        service: { ...service, port },
        address: rs === "rs1" ? "198.51.100.21" : "198.51.100.22",
        weight: weights[i],
        forwarding: "dr",
        host: connectionTo(rs),
      },
    })),
  ];

  test("create: traffic through the VIP follows the weights", async () => {
    const summary = await stack.deploy(declare([1, 3]));
    expect(summary.created).toHaveLength(4);
    const counts = tally(await fetchThroughVip(vip, 80, 40));
    expect(counts).toEqual({ rs1: 10, rs2: 30 });
  });

  test("a second deploy with nothing changed runs no changing command on any host", async () => {
    const lengths = await Promise.all(hosts.map(changeLogLength));
    const summary = await stack.deploy(declare([1, 3]));
    expect(summary.unchanged).toHaveLength(4);
    expect(await Promise.all(hosts.map(changeLogLength))).toEqual(lengths);
  });

  test("a weight change updates in place and traffic follows", async () => {
    const summary = await stack.deploy(declare([2, 2]));
    expect(summary.updated).toEqual([urnOf("rs1", "realServer"), urnOf("rs2", "realServer")]);
    expect(summary.replaced).toEqual([]);
    expect(tally(await fetchThroughVip(vip, 80, 40))).toEqual({ rs1: 20, rs2: 20 });
  });

  test("a weight edited by hand shows up in read()", async () => {
    await labExec("dir1", `ipvsadm -e -t ${vip}:80 -r 198.51.100.21:80 -g -w 7`);
    const live = await stack.engine.refresh();
    expect(live[urnOf("rs1", "realServer")]?.weight).toBe(7);
    expect(live[urnOf("rs2", "realServer")]?.weight).toBe(2);
  });

  test("an identity change (port) replaces the service", async () => {
    const diff = await stack.host.diff(
      urnOf("web", "virtualService"),
      stack.outputs("web", "virtualService").__provider ? "web" : "web",
      stack.outputs("web", "virtualService"),
      { ...stack.outputs("web", "virtualService"), port: 8080 },
    );
    expect(diff.replaces).toEqual(["port"]);
  });

  test("destroy leaves the director and the real servers exactly as they were", async () => {
    await stack.destroy();
    for (const h of hosts) expect(await hostSnapshot(h)).toBe(before[h]);
  });
});
