import { HostClaim, mergeClaims } from "../../../provider/model/host-claim";

const claim = (id: string, over: Partial<HostClaim>): HostClaim => ({
  id,
  vips: [],
  sysctls: {},
  routes: [],
  modules: [],
  links: [],
  ...over,
});

describe("mergeClaims", () => {
  it("is the union of claims, shared items once", () => {
    const lo = { dev: "lo", cidr: "203.0.113.101/32" };
    const state = mergeClaims([
      claim("b", { vips: [lo], sysctls: { "net.ipv4.conf.all.arp_ignore": "1" }, modules: ["ipip"] }),
      claim("a", {
        vips: [lo, { dev: "lo", cidr: "203.0.113.102/32" }],
        sysctls: { "net.ipv4.conf.all.arp_ignore": "1" },
        modules: ["ipip"],
      }),
    ]);
    expect(state).toEqual({
      vips: [lo, { dev: "lo", cidr: "203.0.113.102/32" }],
      sysctls: { "net.ipv4.conf.all.arp_ignore": "1" },
      routes: [],
      modules: ["ipip"],
      links: [],
    });
  });

  it("rejects conflicting sysctls and routes, naming both claims", () => {
    expect(() => mergeClaims([claim("a", { sysctls: { k: "1" } }), claim("b", { sysctls: { k: "2" } })])).toThrow(
      "k: claim b wants 2, claim a wants 1",
    );
    const route = { family: "inet" as const, to: "default", via: "198.51.100.1" };
    expect(() =>
      mergeClaims([claim("a", { routes: [route] }), claim("b", { routes: [{ ...route, via: "198.51.100.2" }] })]),
    ).toThrow("route default: claim b wants via 198.51.100.2, claim a wants via 198.51.100.1");
  });
});
