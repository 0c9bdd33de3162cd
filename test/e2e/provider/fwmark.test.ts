// A firewall-mark service end to end: tcp/80 and tcp/8443 of one VIP marked on the director, one persistent fwmark
// service for both, DR to the lab's real servers. Every request of one client lands on one real server on both ports.
import { fetchThroughVip, labExec, labRun, labTopology, tally } from "../../lab/lab";
import { changeLogLength, connectionTo, Declared, hostSnapshot, LabStack } from "./fixture";

const HOSTS = ["dir1", "rs1", "rs2"];
const MARK = 8443;
// A second address of the client: another client for the persistence templates (in the same /26: the lab routes no
// second client network).
const SECOND_CLIENT = "203.0.113.11";

describe("fwmark service grouping tcp/80 and tcp/8443 with persistence", () => {
  const vip = labTopology().freeVips.ipv4[10];
  const dir1 = connectionTo("dir1");
  const before: Record<string, string> = {};
  let stack: LabStack;

  const declare = (ports: (number | string)[]): Declared[] => {
    const service = { fwmark: MARK, match: { protocol: "tcp", addresses: [vip], ports } };
    return [
      { name: "dir1", kind: "director", inputs: { connection: dir1 } },
      {
        name: "fwm-web",
        kind: "virtualService",
        inputs: { directors: [dir1], ...service, scheduler: "rr", persistence: { timeoutSeconds: 300 } },
      },
      ...["rs1", "rs2"].map((host, i) => ({
        name: `fwm-${host}`,
        kind: "realServer" as const,
        inputs: {
          directors: [dir1],
          service,
          address: `198.51.100.2${i + 1}`,
          forwarding: "dr",
          host: connectionTo(host),
        },
      })),
    ];
  };

  const ourMarkRules = async () =>
    (await labExec("dir1", "iptables -t mangle -S PREROUTING"))
      .split("\n")
      .filter((line) => line.includes("lvs-pulumi:"));

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await labRun("client", `ip addr del ${SECOND_CLIENT}/26 dev eth0`);
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

  test("persistence across the grouped ports: one client's requests all go to one real server, on 80 and 8443", async () => {
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

    // Another client gets its own template: rr gives it the other real server, and it too keeps it on both ports.
    await labExec("client", `ip addr add ${SECOND_CLIENT}/26 dev eth0`);
    const fromSecond = (
      await labExec(
        "client",
        `for p in 80 8443 80 8443 80 8443; do curl -s -m 3 --interface ${SECOND_CLIENT} "http://${vip}:$p/" || echo FAILED; done`,
      )
    )
      .split("\n")
      .filter((line) => line.length > 0);
    console.log(`fwmark: client ${SECOND_CLIENT}, ports 80 and 8443 alternating: ${JSON.stringify(tally(fromSecond))}`);
    expect(tally(fromSecond)).toEqual({ [chosen === "rs1" ? "rs2" : "rs1"]: 6 });
    // The connection table with its persistence templates (one per client), as the kernel lists it.
    console.log(`fwmark: dir1 ipvsadm -Lnc:\n${(await labExec("dir1", "ipvsadm -Lnc")).trim()}`);
    await labExec("client", `ip addr del ${SECOND_CLIENT}/26 dev eth0`);
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
});
