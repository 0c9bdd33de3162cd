// Drift of the hosts' side (issue 26): the VIP taken off a DR real server's lo and its arp_ignore reset by hand; the
// VIP taken off the director and its IPVS timeouts changed. Refresh names each (`hostDrift`: what the next apply runs
// there), the next deploy repairs them, and the client is answered again. A checked service with no real server stays
// in state.
import { fetchThroughVip, labExec, labTopology, tally } from "../../lab/lab";
import { connectionTo, Declared, hostSnapshot, LabStack, urnOf } from "./fixture";

const HOSTS = ["dir1", "rs1"];

describe("drift of a real server's host", () => {
  let stack: LabStack;
  const vip = labTopology().freeVips.ipv4[8];
  const dir1 = connectionTo("dir1");
  const before: Record<string, string> = {};
  const topology: Declared[] = [
    { name: "dir1", kind: "director", inputs: { connection: dir1, timeouts: { tcp: 900, tcpFin: 60, udp: 120 } } },
    {
      name: "drift-web",
      kind: "virtualService",
      inputs: { directors: [dir1], protocol: "tcp", address: vip, port: 80, scheduler: "rr" },
    },
    // A checked service with no real server: keepalived holds it, with or without a kernel entry.
    {
      name: "drift-checked",
      kind: "virtualService",
      inputs: {
        directors: [dir1],
        protocol: "tcp",
        address: vip,
        port: 8080,
        scheduler: "rr",
        healthCheck: { type: "tcp" },
      },
    },
    {
      name: "drift-rs1",
      kind: "realServer",
      inputs: {
        directors: [dir1],
        service: { protocol: "tcp", address: vip, port: 80 },
        address: "198.51.100.21",
        host: connectionTo("rs1"),
      },
    },
  ];
  const rs1 = urnOf("drift-rs1", "realServer");
  const director = urnOf("dir1", "director");
  /** The interface of rs1 that holds its RIP: where the claim sets arp_ignore. */
  const ripDevice = async () => (await labExec("rs1", "ip -o -4 addr show to 198.51.100.21 | awk '{print $2}'")).trim();
  const arpIgnore = async () =>
    (await labExec("rs1", `sysctl -n net.ipv4.conf.${await ripDevice()}.arp_ignore`)).trim();
  const vipOnLo = async () => (await labExec("rs1", "ip -o addr show dev lo")).includes(`${vip}/32`);

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    stack = await LabStack.start();
    await stack.deploy(topology);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("right after the deploy: served, and refresh finds no drift", async () => {
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 4 });
    const live = await stack.engine.refresh();
    expect(live[rs1]).not.toHaveProperty("hostDrift");
    expect(live[director]).not.toHaveProperty("hostDrift");
    // The checked service without real servers stays in state.
    const kernel = (await labExec("dir1", "ipvsadm -Sn")).includes(`-A -t ${vip}:8080`);
    process.stdout.write(`a checked service without real servers has a kernel entry: ${kernel}\n`);
    expect(live[urnOf("drift-checked", "virtualService")]).toMatchObject({ port: 8080, scheduler: "rr" });
    expect(live[urnOf("drift-checked", "virtualService")]).not.toHaveProperty("missingFrom");
  });

  test("the director's VIP removed and its timeouts changed by hand: refresh names both, the deploy repairs", async () => {
    const device = (await labExec("dir1", `ip -o addr show | awk '$4 == "${vip}/32" {print $2}'`)).trim();
    expect(device).not.toBe("");
    await labExec("dir1", `ip addr del ${vip}/32 dev ${device} && ipvsadm --set 901 61 121`);
    expect(await fetchThroughVip(vip, 80, 1)).toEqual(["FAILED"]);

    const live = await stack.engine.refresh();
    const drift = (live[director]?.hostDrift ?? []) as string[];
    process.stdout.write(`director drift after the hand edit:\n${drift.join("\n")}\n`);
    expect(drift.some((line) => line.includes(`${vip}/32`))).toBe(true);
    expect(drift.some((line) => line.includes("--set 900 60 120"))).toBe(true);

    const summary = await stack.deploy(topology);
    expect(summary.updated).toEqual([director]);
    expect(await labExec("dir1", "ipvsadm -L --timeout")).toContain("900 60 120");
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 4 });
    expect((await stack.engine.refresh())[director]).not.toHaveProperty("hostDrift");
  });

  test("VIP off lo and arp_ignore 0 by hand: refresh names both, the next deploy repairs them, served again", async () => {
    const device = await ripDevice();
    await labExec("rs1", `ip addr del ${vip}/32 dev lo && sysctl -qw net.ipv4.conf.${device}.arp_ignore=0`);
    expect(await vipOnLo()).toBe(false);
    expect(await fetchThroughVip(vip, 80, 1)).toEqual(["FAILED"]);

    const live = await stack.engine.refresh();
    const drift = (live[rs1]?.hostDrift ?? []) as string[];
    process.stdout.write(`host drift after the hand edit:\n${drift.join("\n")}\n`);
    expect(drift.some((line) => line.includes(`${vip}/32`) && line.includes("lo"))).toBe(true);
    expect(drift.some((line) => line.includes(`${device}.arp_ignore`) || line.includes(`${device}/arp_ignore`))).toBe(
      true,
    );

    const summary = await stack.deploy(topology);
    expect(summary.updated).toEqual([rs1]);
    expect(await vipOnLo()).toBe(true);
    expect(await arpIgnore()).toBe("1");
    expect(tally(await fetchThroughVip(vip, 80, 4))).toEqual({ rs1: 4 });
    expect((await stack.engine.refresh())[rs1]).not.toHaveProperty("hostDrift");
  });

  test("destroy leaves every host as it was", async () => {
    await stack.destroy();
    for (const h of HOSTS) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });
  });
});
