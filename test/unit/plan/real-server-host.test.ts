import { HostClaim, HostOriginals } from "../../../provider/model/host-claim";
import { planRealServerHost, RealServerHostFacts } from "../../../provider/plan/real-server-host";

const arp = { "net.ipv4.conf.all.arp_ignore": "1", "net.ipv4.conf.all.arp_announce": "2" };
const dr = (id: string, vip: string): HostClaim => ({
  id,
  vips: [{ dev: "lo", cidr: vip }],
  sysctls: arp,
  routes: [],
  modules: [],
  links: [],
});
const web80 = dr("web-80", "203.0.113.101/32");
const web443 = dr("web-443", "203.0.113.101/32");
const none: HostOriginals = { sysctls: {}, routes: {} };

function facts(over: Partial<RealServerHostFacts> = {}): RealServerHostFacts {
  return {
    loadedModules: [],
    links: {},
    addresses: { lo: ["127.0.0.1/8"] },
    sysctls: { "net.ipv4.conf.all.arp_ignore": "0", "net.ipv4.conf.all.arp_announce": "0" },
    routes: { inet: [{ dst: "default", gateway: "192.0.2.1", dev: "eth0" }], inet6: [] },
    heldVips: [],
    ...over,
  };
}
const converged = facts({
  addresses: { lo: ["127.0.0.1/8", "203.0.113.101/32"] },
  heldVips: web80.vips,
  sysctls: { "net.ipv4.conf.all.arp_ignore": "1", "net.ipv4.conf.all.arp_announce": "2" },
});
const recorded: HostOriginals = {
  sysctls: { "net.ipv4.conf.all.arp_announce": "0", "net.ipv4.conf.all.arp_ignore": "0" },
  routes: {},
};

describe("planRealServerHost", () => {
  it("sets ARP sysctls before adding the VIP and records the originals", () => {
    expect(planRealServerHost([web80], [], facts(), none)).toEqual({
      commands: [
        "sysctl -w net.ipv4.conf.all.arp_announce=2",
        "sysctl -w net.ipv4.conf.all.arp_ignore=1",
        "ip addr add 203.0.113.101/32 dev lo",
      ],
      recorded,
      originals: recorded,
    });
  });

  it("is converged on a second run", () => {
    expect(planRealServerHost([web80, web443], [], converged, recorded)).toEqual({
      commands: [],
      recorded,
      originals: recorded,
    });
  });

  it("keeps a shared VIP and sysctls while another claim needs them", () => {
    expect(planRealServerHost([web443], [web80], converged, recorded)).toEqual({
      commands: [],
      recorded,
      originals: recorded,
    });
  });

  it("removes the VIP and restores original sysctls with the last claim, recorded until restored", () => {
    expect(planRealServerHost([], [web443], converged, recorded)).toEqual({
      commands: [
        "ip addr del 203.0.113.101/32 dev lo",
        "sysctl -w net.ipv4.conf.all.arp_announce=0",
        "sysctl -w net.ipv4.conf.all.arp_ignore=0",
      ],
      recorded,
      originals: none,
    });
  });

  it("never deletes a VIP that was on the host before the first claim on it", () => {
    const handMade = facts({ addresses: { lo: ["127.0.0.1/8", "203.0.113.101/32"] } });
    const claimed = planRealServerHost([web80], [], handMade, none);
    expect(claimed.commands).not.toContain("ip addr add 203.0.113.101/32 dev lo");
    const released = planRealServerHost([], [web80], converged, claimed.originals);
    expect(released.commands).not.toContain("ip addr del 203.0.113.101/32 dev lo");
    expect(released.originals).toEqual(none);
    // Until the release succeeded, the VIP is still known as the host's own: a retry must not delete it either.
    expect(released.recorded.vips).toEqual(["lo 203.0.113.101/32"]);
  });

  it("brings up tunl0 after loading ipip", () => {
    const tun: HostClaim = {
      id: "tun",
      vips: [{ dev: "tunl0", cidr: "203.0.113.101/32" }],
      sysctls: { "net.ipv4.conf.all.rp_filter": "0", "net.ipv4.conf.tunl0.rp_filter": "0" },
      routes: [],
      modules: ["ipip"],
      links: ["tunl0"],
    };
    const plan = planRealServerHost([tun], [], facts({ sysctls: { "net.ipv4.conf.all.rp_filter": "2" } }), none);
    expect(plan.commands).toEqual([
      "modprobe ipip",
      "ip link set dev tunl0 up",
      "sysctl -w net.ipv4.conf.tunl0.rp_filter=0",
      "ip addr add 203.0.113.101/32 dev tunl0",
    ]);
    expect(plan.originals).toEqual(none);
  });

  it("routes NAT replies via the director and restores the previous default route", () => {
    const nat: HostClaim = {
      id: "nat",
      vips: [],
      sysctls: {},
      routes: [{ family: "inet", to: "default", via: "198.51.100.1" }],
      modules: [],
      links: [],
    };
    const added = planRealServerHost([nat], [], facts(), none);
    const original = { sysctls: {}, routes: { "inet:default": { via: "192.0.2.1", dev: "eth0" } } };
    expect(added).toEqual({
      commands: ["ip route replace default via 198.51.100.1"],
      recorded: original,
      originals: original,
    });
    const routed = facts({ routes: { inet: [{ dst: "default", gateway: "198.51.100.1", dev: "eth1" }], inet6: [] } });
    expect(planRealServerHost([nat], [], routed, added.originals).commands).toEqual([]);
    expect(planRealServerHost([], [nat], routed, added.originals)).toEqual({
      commands: ["ip route replace default via 192.0.2.1 dev eth0"],
      recorded: original,
      originals: none,
    });
  });

  it("deletes a client prefix route that did not exist before", () => {
    const nat: HostClaim = {
      id: "nat",
      vips: [],
      sysctls: {},
      routes: [{ family: "inet6", to: "2001:db8:c::/64", via: "2001:db8::1" }],
      modules: [],
      links: [],
    };
    const added = planRealServerHost([nat], [], facts(), none);
    expect(added.commands).toEqual(["ip -6 route replace 2001:db8:c::/64 via 2001:db8::1"]);
    const routed = facts({
      routes: { inet: [], inet6: [{ dst: "2001:db8:c::/64", gateway: "2001:db8::1", dev: "eth1" }] },
    });
    expect(planRealServerHost([], [nat], routed, added.originals).commands).toEqual([
      "ip -6 route del 2001:db8:c::/64 via 2001:db8::1",
    ]);
  });

  it("announces a director's VIP right after adding it (a VIP that moved), a real server's never", () => {
    const bound = (cidr: string): HostClaim => ({
      id: `vip-${cidr}`,
      vips: [{ dev: "eth0", cidr, announce: true }],
      sysctls: cidr.includes(":") ? { "net.ipv6.conf.eth0.ndisc_notify": "1" } : {},
      routes: [],
      modules: [],
      links: [],
    });
    expect(planRealServerHost([bound("203.0.113.101/32")], [], facts(), none).commands).toEqual([
      "ip addr add 203.0.113.101/32 dev eth0",
      "arping -q -U -c 2 -I eth0 203.0.113.101",
    ]);
    // IPv6: the kernel advertises once DAD is done, as the sysctl set before the address says.
    expect(planRealServerHost([bound("2001:db8::1/128")], [], facts(), none).commands).toEqual([
      "sysctl -w net.ipv6.conf.eth0.ndisc_notify=1",
      "ip addr add 2001:db8::1/128 dev eth0 preferred_lft 0",
    ]);
    // Already there: nothing to add, nothing to announce.
    const held = facts({ addresses: { eth0: ["203.0.113.101/32"] }, heldVips: bound("203.0.113.101/32").vips });
    expect(planRealServerHost([bound("203.0.113.101/32")], [], held, none).commands).toEqual([]);
    expect(planRealServerHost([web80], [], facts(), none).commands.join("\n")).not.toContain("arping");
  });
});
