import { parseRoutes } from "../../../provider/facts/routes";
import { chooseEgressDevice, realServerClaim, realServerDirectorClaim } from "../../../provider/plan/real-server-claim";
import { realServerInputsSchema } from "../../../provider/schemas/real-server";
import { hostFixture } from "./host-fixtures";

const base = {
  directors: [{ host: "192.0.2.10", insecureSkipHostKeyCheck: true }],
  service: { protocol: "tcp", address: "203.0.113.101", port: 80 },
  address: "198.51.100.131",
  // A claim is what is set up on the real server itself, over its own connection.
  host: { host: "198.51.100.131", insecureSkipHostKeyCheck: true },
};
const claimFor = (over: object) =>
  realServerClaim("web-1", realServerInputsSchema().parse({ ...base, ...over }), "eth1");

describe("realServerClaim", () => {
  it("DR: VIP/32 on lo and ARP settings on all and the egress interface", () => {
    expect(claimFor({ forwarding: "dr" })).toEqual({
      id: "web-1",
      vips: [{ dev: "lo", cidr: "203.0.113.101/32" }],
      sysctls: {
        "net.ipv4.conf.all.arp_ignore": "1",
        "net.ipv4.conf.all.arp_announce": "2",
        "net.ipv4.conf.eth1.arp_ignore": "1",
        "net.ipv4.conf.eth1.arp_announce": "2",
      },
      routes: [],
      modules: [],
      links: [],
    });
  });

  it("DR over IPv6: VIP/128 on lo, no sysctls", () => {
    const claim = claimFor({ service: { protocol: "tcp", address: "2001:db8::1", port: 80 }, address: "2001:db8::11" });
    expect(claim.vips).toEqual([{ dev: "lo", cidr: "2001:db8::1/128" }]);
    expect(claim.sysctls).toEqual({});
  });

  it("TUN: ipip, tunl0 up with the VIP, rp_filter 0", () => {
    const claim = claimFor({ forwarding: "tun" });
    expect(claim).toMatchObject({
      vips: [{ dev: "tunl0", cidr: "203.0.113.101/32" }],
      modules: ["ipip"],
      links: ["tunl0"],
    });
    expect(claim.sysctls).toMatchObject({ "net.ipv4.conf.all.rp_filter": "0", "net.ipv4.conf.tunl0.rp_filter": "0" });
  });

  it("fwmark: every VIP the mark matches, on lo for DR and on tunl0 for TUN", () => {
    const service = {
      fwmark: 7,
      match: { protocol: "tcp", addresses: ["198.51.100.51", "198.51.100.52"], ports: [80, 8443] },
    };
    const dr = claimFor({ service, forwarding: "dr" });
    expect(dr.vips).toEqual([
      { dev: "lo", cidr: "198.51.100.51/32" },
      { dev: "lo", cidr: "198.51.100.52/32" },
    ]);
    expect(dr.sysctls).toMatchObject({ "net.ipv4.conf.all.arp_ignore": "1", "net.ipv4.conf.eth1.arp_announce": "2" });
    expect(claimFor({ service, forwarding: "tun" }).vips).toEqual([
      { dev: "tunl0", cidr: "198.51.100.51/32" },
      { dev: "tunl0", cidr: "198.51.100.52/32" },
    ]);
    expect(claimFor({ service: { fwmark: 7 }, forwarding: "dr" }).vips).toEqual([]);
  });

  it("NAT: route back through the director, default or a client prefix", () => {
    expect(claimFor({ forwarding: "nat", directorAddress: "198.51.100.1" }).routes).toEqual([
      { family: "inet", to: "default", via: "198.51.100.1" },
    ]);
    expect(
      claimFor({ forwarding: "nat", directorAddress: "198.51.100.1", clientPrefix: "192.0.2.0/24" }).routes,
    ).toEqual([{ family: "inet", to: "192.0.2.0/24", via: "198.51.100.1" }]);
  });

  it("NAT: the client prefix as ip route lists it, so originals and removal find the route", () => {
    const to = (clientPrefix: string, directorAddress = "198.51.100.1") =>
      claimFor({ forwarding: "nat", directorAddress, clientPrefix }).routes[0].to;
    expect(to("0.0.0.0/0")).toBe("default");
    expect(to("203.0.113.7/24")).toBe("203.0.113.0/24");
    expect(to("203.0.113.7/32")).toBe("203.0.113.7");
    const v6 = (clientPrefix: string) =>
      realServerClaim(
        "web-1",
        realServerInputsSchema().parse({
          ...base,
          service: { protocol: "tcp", address: "2001:db8::1", port: 80 },
          address: "2001:db8::11",
          forwarding: "nat",
          directorAddress: "2001:db8::fe",
          clientPrefix,
        }),
        "eth1",
      ).routes[0].to;
    expect(v6("::/0")).toBe("default");
    expect(v6("2001:DB8:0:0:1::/64")).toBe("2001:db8::/64");
  });

  it("fullnat needs nothing on the real server", () => {
    expect(claimFor({ forwarding: "fullnat", snatSource: "198.51.100.1", port: 8080 })).toEqual({
      id: "web-1",
      vips: [],
      sysctls: {},
      routes: [],
      modules: [],
      links: [],
    });
  });
});

describe("the interface a real server's ARP settings go on", () => {
  // `ip -j addr show to <rip>` lists the interface holding the address: its ifname.
  const holderOf = (name: string) => (JSON.parse(hostFixture(name)) as { ifname?: string }[])[0]?.ifname;
  const routes = parseRoutes(hostFixture("ip-route-show.json"));

  it("the one holding the RIP; else the default route's; neither: refused, naming host and RIP", () => {
    expect(chooseEgressDevice("rs1", "192.0.2.2", holderOf("ip-addr-show-to-192.0.2.2.json"), [])).toBe("eth0");
    expect(chooseEgressDevice("rs1", "198.51.100.131", holderOf("ip-addr-show-to-198.51.100.131.json"), routes)).toBe(
      "eth0",
    );
    const onLink = routes.filter((r) => r.dst !== "default");
    expect(() => chooseEgressDevice("root@198.51.100.131:22", "198.51.100.131", undefined, onLink)).toThrow(
      "host root@198.51.100.131:22: no interface holds the RIP 198.51.100.131 and no default route",
    );
  });
});

describe("what a real server needs of its director", () => {
  const directorClaimFor = (over: object) =>
    realServerDirectorClaim("rs-director:web-1", realServerInputsSchema().parse({ ...base, ...over }));

  it("NAT: forwarding for the replies, of the real server's family", () => {
    expect(directorClaimFor({ forwarding: "nat" })).toEqual({
      id: "rs-director:web-1",
      vips: [],
      sysctls: { "net.ipv4.ip_forward": "1" },
      routes: [],
      modules: [],
      links: [],
    });
    const v6 = {
      forwarding: "nat",
      service: { protocol: "tcp", address: "2001:db8::101", port: 80 },
      address: "2001:db8::31",
    };
    expect(directorClaimFor(v6)?.sysctls).toEqual({ "net.ipv6.conf.all.forwarding": "1" });
  });

  it("fullnat: forwarding, IPVS connections tracked and the modules its SNAT matches with", () => {
    expect(directorClaimFor({ forwarding: "fullnat", snatSource: "198.51.100.11" })).toMatchObject({
      sysctls: { "net.ipv4.ip_forward": "1", "net.ipv4.vs.conntrack": "1" },
      modules: ["nf_conntrack", "xt_ipvs"],
    });
  });

  it("DR and TUN: nothing beyond the entry, so no claim", () => {
    expect(directorClaimFor({ forwarding: "dr" })).toBeUndefined();
    expect(directorClaimFor({ forwarding: "tun" })).toBeUndefined();
  });
});
