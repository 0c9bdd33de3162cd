// Proves the lab itself, without the product: reachability, the kernel features the product needs, clean hosts.
import { holdConnection, labExec, labHosts, labRun, steadyLoad } from "../../lab/lab";

describe("lab self-test", () => {
  const hosts = labHosts().hosts;

  test("every host answers SSH through the jump host with its own name and its own host key", async () => {
    const names = await Promise.all(Object.keys(hosts).map((h) => labExec(h, "hostname")));
    expect(names.map((n) => n.trim())).toEqual(Object.keys(hosts));
    const fingerprints = new Set(Object.values(hosts).map((h) => h.connection.hostKey));
    expect(fingerprints.size).toBe(Object.keys(hosts).length);
  });

  test("sshd on the jump host and the lab hosts allows OpenSSH's default sessions and start-ups, as real hosts do", async () => {
    for (const host of ["lab-vm", "dir1", "rs1"]) {
      const limits = await labExec(host, "sshd -T | grep -E '^(maxsessions|maxstartups) '");
      expect({ host, limits: limits.trim().split("\n").sort() }).toEqual({
        host,
        limits: ["maxsessions 10", "maxstartups 10:30:100"],
      });
    }
  });

  test("client reaches the router, directors and routed real servers over IPv4, and the DR segment over IPv6", async () => {
    const reachable = [
      "198.51.100.1",
      "198.51.100.11",
      "198.51.100.12",
      "198.51.100.21",
      "198.51.100.22",
      "198.51.100.141",
    ];
    for (const ip of reachable) {
      const result = await labRun("client", `ping -c1 -W2 ${ip}`);
      expect({ ip, code: result.code }).toEqual({ ip, code: 0 });
    }
    for (const ip of ["2001:db8:1::11", "2001:db8:1::21"]) {
      const result = await labRun("client", `ping -6 -c1 -W2 ${ip}`);
      expect({ ip, code: result.code }).toEqual({ ip, code: 0 });
    }
    // The NAT subnet is private behind the directors: no route from the client.
    expect((await labRun("client", "ping -c1 -W1 198.51.100.71")).code).not.toBe(0);
  });

  test("real servers serve HTTP answering with their own name", async () => {
    for (const [name, ip] of [
      ["rs1", "198.51.100.21"],
      ["rs2", "198.51.100.22"],
      ["trs1", "198.51.100.141"],
    ]) {
      expect((await labExec("client", `curl -s -m 3 http://${ip}/`)).trim()).toBe(name);
    }
    expect((await labExec("client", "curl -s -m 3 'http://[2001:db8:1::21]/'")).trim()).toBe("rs1");
    expect((await labExec("dir1", "curl -s -m 3 http://198.51.100.71/")).trim()).toBe("nrs1");
  });

  test("directors can use IPVS: modprobe ip_vs works and ipvsadm talks to the kernel", async () => {
    for (const director of ["dir1", "dir2"]) {
      await labExec(director, "modprobe ip_vs && modprobe ip_vs_wlc && modprobe ip_vs_mh");
      expect(await labExec(director, "ipvsadm -Ln")).toContain("IP Virtual Server version");
    }
  });

  test("trs1 can create an ipip tunnel, and keepalived runs", async () => {
    await labExec(
      "trs1",
      "ip link add lab-selftest type ipip local 198.51.100.141 remote 198.51.100.11 && ip link del lab-selftest",
    );
    expect(await labExec("trs1", "ip -d link show tunl0")).toContain("ipip");
    expect(
      (await labRun("dir1", "keepalived --version")).stderr + (await labRun("dir1", "keepalived --version")).stdout,
    ).toMatch(/Keepalived v\d/);
  });

  test("hosts start clean: no IPVS entries, no VIPs on lo, default ARP sysctls", async () => {
    for (const host of ["dir1", "dir2", "rs1", "rs2", "nrs1", "trs1"]) {
      expect(await labExec(host, "ipvsadm -Sn 2>/dev/null || true")).toBe("");
      expect((await labExec(host, "ip -4 -o addr show dev lo")).trim().split("\n")).toHaveLength(1);
      expect(
        (await labExec(host, "sysctl -n net.ipv4.conf.all.arp_ignore net.ipv4.conf.all.arp_announce"))
          .split(/\s+/)
          .slice(0, 2),
      ).toEqual(["0", "0"]);
      expect((await labRun(host, "test -e /etc/keepalived/keepalived.conf")).code).toBe(1);
    }
  });

  test("two hosts never share /etc: a file written on one is absent on the other", async () => {
    await labExec("rs1", "mkdir -p /etc/sysctl.d && echo rs1-only > /etc/sysctl.d/99-lab-isolation.conf");
    expect((await labRun("rs2", "cat /etc/sysctl.d/99-lab-isolation.conf")).code).not.toBe(0);
    await labExec("rs1", "rm /etc/sysctl.d/99-lab-isolation.conf");
  });

  test("helpers: a held TCP connection is seen by the server; a steady load counts its answers", async () => {
    const held = holdConnection("198.51.100.21", 80, 30);
    try {
      let established = "";
      for (let i = 0; i < 20 && !established.includes("203.0.113.10"); i++) {
        await new Promise((r) => setTimeout(r, 500));
        established = await labExec("rs1", "ss -Htn state established '( sport = :80 )'");
      }
      expect(established).toContain("203.0.113.10");
    } finally {
      held.close();
    }
    const load = await steadyLoad("198.51.100.22", 80, 3);
    expect(load.failed).toBe(0);
    // Under emulation a request costs ~0.5 s (curl start-up dominates): a handful in 3 s.
    expect(load.ok).toBeGreaterThanOrEqual(2);
  });
});
