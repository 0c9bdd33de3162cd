// Rules and real-server setup survive a real reboot of the director and of a real server, with nothing re-applied
// by Pulumi: the hosts' own systemd replays what the provider persisted.
import { fetchThroughVip, labExec, labTopology, rebootHost, tally } from "../../lab/lab";
import { changeLogLength, connectionTo, Declared, LabStack } from "./fixture";

describe("persistence across reboot", () => {
  let stack: LabStack;
  const vip = labTopology().freeVips.ipv4[4];
  const dir1 = connectionTo("dir1");
  const service = { protocol: "tcp", address: vip, port: 80 };
  const resources: Declared[] = [
    { name: "dir1", kind: "director", inputs: { connection: dir1, timeouts: { tcp: 900, tcpFin: 60, udp: 120 } } },
    {
      name: "persist-web",
      kind: "virtualService",
      inputs: { directors: [dir1], ...service, scheduler: "rr" },
    },
    {
      name: "persist-rs1",
      kind: "realServer",
      inputs: { directors: [dir1], service, address: "198.51.100.21", weight: 1, host: connectionTo("rs1") },
    },
    {
      name: "persist-trs1",
      kind: "realServer",
      inputs: {
        directors: [dir1],
        service,
        address: "198.51.100.141",
        weight: 1,
        forwarding: "fullnat",
        snatSource: labTopology().directors.dir1.dip.lan,
        host: connectionTo("trs1"),
      },
    },
  ];
  const directorState = () =>
    labExec(
      "dir1",
      `ipvsadm -Sn; ipvsadm -Ln --timeout; ip -o addr show dev eth0 | awk '{print $4}'
       iptables -t nat -S POSTROUTING; sysctl net.ipv4.vs.conntrack net.ipv4.vs.expire_nodest_conn net.ipv4.ip_forward`,
    );
  const realServerState = (host: string) =>
    labExec(
      host,
      `ip -o addr show | awk '{print $2, $4}' | grep -v fe80; sysctl net.ipv4.conf.all.arp_ignore net.ipv4.conf.all.arp_announce net.ipv4.conf.eth0.arp_ignore`,
    );

  beforeAll(async () => {
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await stack?.destroy();
    await stack?.stop();
  });

  test("the director and a DR real server come back identical after a real reboot", async () => {
    await stack.deploy(resources);
    expect(Object.keys(tally(await fetchThroughVip(vip, 80, 8))).sort()).toEqual(["rs1", "trs1"]);
    const director = await directorState();
    const rs1 = await realServerState("rs1");
    const changes = await Promise.all(["dir1", "rs1"].map(changeLogLength));

    const [dirMs, rsMs] = await Promise.all([rebootHost("dir1"), rebootHost("rs1")]);
    console.log(`reboot to SSH: dir1 ${(dirMs / 1000).toFixed(1)} s, rs1 ${(rsMs / 1000).toFixed(1)} s`);

    expect(await directorState()).toBe(director);
    expect(await realServerState("rs1")).toBe(rs1);
    expect(await Promise.all(["dir1", "rs1"].map(changeLogLength))).toEqual(changes);
    expect(Object.keys(tally(await fetchThroughVip(vip, 80, 8))).sort()).toEqual(["rs1", "trs1"]);
  });

  // The boot replay also sets the timeouts: it stays while the director has them, with no service left.
  test("a director's timeouts, with no service, are as set after a real reboot", async () => {
    await stack.deploy(resources.slice(0, 1));
    const timeouts = () => labExec("dir1", "ipvsadm -Ln --timeout");
    expect(await timeouts()).toContain("900 60 120");
    expect(await labExec("dir1", "ipvsadm -Sn")).toBe("");
    const dirMs = await rebootHost("dir1");
    console.log(`reboot to SSH with no service: dir1 ${(dirMs / 1000).toFixed(1)} s`);
    expect(await timeouts()).toContain("900 60 120");
  });
});
