// A firewall-mark service end to end: tcp/80 and tcp/8443 of one VIP marked on the director, one persistent fwmark
// service for both (persistence per client network, /26), DR to the lab's real servers. Every request of one client
// network lands on one real server on both ports; another client network gets its own.
import { fetchThroughVip, labExec, labRun, labTopology, tally } from "../../lab/lab";
import { changeLogLength, connectionTo, Declared, hostSnapshot, LabStack } from "./fixture";

const HOSTS = ["dir1", "rs1", "rs2"];
const MARK = 8443;
// The persistence netmask groups clients by network: the lab's client network is a /26.
const CLIENT_NETWORK_MASK = "255.255.255.192";
// Another client in the client's own network, and a client in a second client network (203.0.113.64/26, reached
// through the router, which gets an address in it for the test) — both as extra addresses of the client host.
const SAME_NETWORK_CLIENT = "203.0.113.11";
const OTHER_NETWORK = { client: "203.0.113.70", router: "203.0.113.65", prefix: 26 };

describe("fwmark service grouping tcp/80 and tcp/8443 with persistence", () => {
  const vip = labTopology().freeVips.ipv4[10];
  const vip6 = labTopology().freeVips.ipv6[4];
  const dir1 = connectionTo("dir1");
  const before: Record<string, string> = {};
  let stack: LabStack;

  const declare = (ports: (number | string)[], family: "inet" | "inet6" = "inet"): Declared[] => {
    const v6 = family === "inet6";
    const service = { fwmark: MARK, family, match: { protocol: "tcp", addresses: [v6 ? vip6 : vip], ports } };
    return [
      { name: "dir1", kind: "director", inputs: { connection: dir1 } },
      {
        name: "fwm-web",
        kind: "virtualService",
        inputs: {
          directors: [dir1],
          ...service,
          scheduler: "rr",
          persistence: { timeoutSeconds: 300, netmask: v6 ? 64 : CLIENT_NETWORK_MASK },
        },
      },
      ...["rs1", "rs2"].map((host, i) => ({
        name: `fwm-${host}`,
        kind: "realServer" as const,
        inputs: {
          directors: [dir1],
          service,
          address: v6 ? `2001:db8:1::2${i + 1}` : `198.51.100.2${i + 1}`,
          forwarding: "dr",
          host: connectionTo(host),
        },
      })),
    ];
  };

  const ourMarkRules = async (iptables = "iptables") =>
    (await labExec("dir1", `${iptables} -t mangle -S PREROUTING`))
      .split("\n")
      .filter((line) => line.includes("lvs-pulumi:"));

  const addClientAddresses = async () => {
    await labExec("client", `ip addr add ${SAME_NETWORK_CLIENT}/26 dev eth0`);
    await labExec("client", `ip addr add ${OTHER_NETWORK.client}/${OTHER_NETWORK.prefix} dev eth0`);
    await labExec("router", `ip addr add ${OTHER_NETWORK.router}/${OTHER_NETWORK.prefix} dev eth0`);
  };
  const removeClientAddresses = async () => {
    await labRun("client", `ip addr del ${SAME_NETWORK_CLIENT}/26 dev eth0`);
    await labRun("client", `ip addr del ${OTHER_NETWORK.client}/${OTHER_NETWORK.prefix} dev eth0`);
    await labRun("router", `ip addr del ${OTHER_NETWORK.router}/${OTHER_NETWORK.prefix} dev eth0`);
  };
  // Ports 80 and 8443 alternating, three times each, sent from one of the client host's addresses.
  const fetchFrom = async (source: string) =>
    (
      await labExec(
        "client",
        `for p in 80 8443 80 8443 80 8443; do curl -s -m 3 --interface ${source} "http://${vip}:$p/" || echo FAILED; done`,
      )
    )
      .split("\n")
      .filter((line) => line.length > 0);

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await removeClientAddresses();
    await stack?.stop();
  });

  test("create: mark rules on the director, VIP on the director and on the real servers' lo", async () => {
    const summary = await stack.deploy(declare([80, 8443]));
    expect(summary.created).toHaveLength(4);
    const rules = await ourMarkRules();
    console.log(`fwmark: dir1 mangle PREROUTING rules of ours:\n${rules.join("\n")}`);
    expect(rules).toEqual([
      `-A PREROUTING -d ${vip}/32 -p tcp -m tcp --dport 80 -m comment --comment "lvs-pulumi:fwm:${MARK}" -j MARK --set-xmark 0x${MARK.toString(16)}/0xffffffff`,
      `-A PREROUTING -d ${vip}/32 -p tcp -m tcp --dport 8443 -m comment --comment "lvs-pulumi:fwm:${MARK}" -j MARK --set-xmark 0x${MARK.toString(16)}/0xffffffff`,
    ]);
    expect(await labExec("dir1", "ip -o addr show")).toContain(`${vip}/32`);
    for (const rs of ["rs1", "rs2"]) expect(await labExec(rs, "ip -o addr show dev lo")).toContain(`${vip}/32`);
  });

  test("persistence across the grouped ports: one client network's requests all go to one real server, on 80 and 8443; another network's elsewhere", async () => {
    const on80 = await fetchThroughVip(vip, 80, 10);
    const on8443 = await fetchThroughVip(vip, 8443, 10);
    const first = tally([...on80, ...on8443]);
    console.log(
      `fwmark: client 203.0.113.10: port 80 ${JSON.stringify(tally(on80))}, port 8443 ${JSON.stringify(tally(on8443))}`,
    );
    expect(Object.keys(first)).toHaveLength(1);
    const [chosen] = Object.keys(first);
    expect(["rs1", "rs2"]).toContain(chosen);
    expect(first[chosen]).toBe(20);
    await addClientAddresses();

    // Another client of the same network shares the network's template: the same real server on both ports.
    expect(tally(await fetchFrom(SAME_NETWORK_CLIENT))).toEqual({ [chosen]: 6 });
    // A client of another network gets a template of its own: rr gives it the other real server, on both ports.
    const fromOther = await fetchFrom(OTHER_NETWORK.client);
    console.log(
      `fwmark: client ${OTHER_NETWORK.client} (another /26), 80 and 8443 alternating: ${JSON.stringify(tally(fromOther))}`,
    );
    expect(tally(fromOther)).toEqual({ [chosen === "rs1" ? "rs2" : "rs1"]: 6 });
    // The connection table with its persistence templates (one per client network), as the kernel lists it.
    console.log(`fwmark: dir1 ipvsadm -Lnc:\n${(await labExec("dir1", "ipvsadm -Lnc")).trim()}`);
    await removeClientAddresses();
  });

  test("a second deploy with nothing changed runs no changing command on any host", async () => {
    const lengths = await Promise.all(HOSTS.map(changeLogLength));
    const summary = await stack.deploy(declare([80, 8443]));
    expect(summary.unchanged).toHaveLength(4);
    expect(await Promise.all(HOSTS.map(changeLogLength))).toEqual(lengths);
  });

  test("a new match replaces the old rules in place (8443 -> 8443-8444), no stale rule left", async () => {
    const summary = await stack.deploy(declare([80, "8443-8444"]));
    expect(summary.replaced).toEqual([]);
    const rules = await ourMarkRules();
    expect(rules).toHaveLength(2);
    expect(rules.some((rule) => rule.includes("--dport 8443:8444"))).toBe(true);
    expect(rules.some((rule) => rule.includes("--dport 8443 "))).toBe(false);
    expect(tally(await fetchThroughVip(vip, 8443, 4))).toEqual(tally(await fetchThroughVip(vip, 80, 4)));
  });

  test("the boot replay puts the mark rules back", async () => {
    const rules = await ourMarkRules();
    for (const rule of rules) await labExec("dir1", `iptables -t mangle ${rule.replace(/^-A /, "-D ")}`);
    expect(await ourMarkRules()).toEqual([]);
    // The IPVS entries are still there, so their replay fails ("already exists"): only the rules matter here.
    await labRun("dir1", "/usr/local/lib/lvs-pulumi/restore-ipvs.sh");
    expect(await ourMarkRules()).toEqual(rules);
  });

  test("destroy leaves every host as it was: no mangle rule, no VIP", async () => {
    await stack.destroy();
    expect(await ourMarkRules()).toEqual([]);
    for (const h of HOSTS) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });
  });

  test("IPv6: the same service marked by ip6tables, persistent across both ports; destroy leaves no rule", async () => {
    const summary = await stack.deploy(declare([80, 8443], "inet6"));
    expect(summary.created).toHaveLength(4);
    const rules = await ourMarkRules("ip6tables");
    console.log(`fwmark: dir1 ip6tables mangle PREROUTING rules of ours:\n${rules.join("\n")}`);
    expect(rules).toHaveLength(2);
    expect(rules.every((rule) => rule.startsWith(`-A PREROUTING -d ${vip6}/128 -p tcp`))).toBe(true);
    const on80 = await fetchThroughVip(vip6, 80, 5);
    const on8443 = await fetchThroughVip(vip6, 8443, 5);
    console.log(
      `fwmark: IPv6 client: port 80 ${JSON.stringify(tally(on80))}, port 8443 ${JSON.stringify(tally(on8443))}`,
    );
    const answers = tally([...on80, ...on8443]);
    expect(Object.values(answers)).toEqual([10]);
    expect(["rs1", "rs2"]).toContain(Object.keys(answers)[0]);
    await stack.destroy();
    expect(await ourMarkRules("ip6tables")).toEqual([]);
    for (const h of HOSTS) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });
  });
});
