import { HostClaim, HostOriginals } from "../../../provider/model/host-claim";
import { renderClaimFile, renderOriginalsFile } from "../../../provider/render/claim-file";
import { hostClaimSchema, hostOriginalsSchema } from "../../../provider/schemas/host-claim";

const claim: HostClaim = {
  id: "urn:pulumi:lab::lvs::lvs:index:RealServer::web-1",
  vips: [
    { dev: "lo", cidr: "203.0.113.101/32" },
    { dev: "eth0", cidr: "2001:db8::40/128", announce: true },
  ],
  sysctls: { "net.ipv4.conf.all.arp_ignore": "1", "net.ipv6.conf.eth0.ndisc_notify": "1" },
  routes: [{ family: "inet6", to: "2001:db8:c::/64", via: "2001:db8::1" }],
  modules: ["ipip"],
  links: ["tunl0"],
};
const originals: HostOriginals = {
  sysctls: { "net.ipv4.conf.all.arp_ignore": "0" },
  routes: { "inet:default": { via: "198.51.100.1", dev: "eth0" }, "inet6:2001:db8:c::/64": null },
  vips: ["203.0.113.101/32"],
};

describe("hostClaimSchema", () => {
  it("reads back a claim file as written", () => {
    expect(hostClaimSchema().parse(JSON.parse(renderClaimFile(claim)))).toEqual(claim);
  });

  it.each([
    ["without an id", { ...claim, id: "" }],
    ["without its VIP list", { ...claim, vips: undefined }],
    [
      "with a route of no known family",
      { ...claim, routes: [{ family: "inet4", to: "default", via: "198.51.100.1" }] },
    ],
    ["with a sysctl value that is not text", { ...claim, sysctls: { "net.ipv4.ip_forward": 1 } }],
    ["with an announce that is not a boolean", { ...claim, vips: [{ dev: "eth0", cidr: "x", announce: "yes" }] }],
  ])("refuses a claim %s", (_what, raw) => {
    expect(hostClaimSchema().safeParse(raw).success).toBe(false);
  });
});

describe("hostOriginalsSchema", () => {
  it("reads back an originals file as written; a route recorded as absent is null", () => {
    expect(hostOriginalsSchema().parse(JSON.parse(renderOriginalsFile(originals)))).toEqual(originals);
  });

  it("takes a file without recorded VIPs (written before they were recorded)", () => {
    expect(hostOriginalsSchema().parse({ sysctls: {}, routes: {} })).toEqual({ sysctls: {}, routes: {} });
  });

  it("refuses a file without its sysctls, or with a route that is not an object or null", () => {
    expect(hostOriginalsSchema().safeParse({ routes: {} }).success).toBe(false);
    expect(hostOriginalsSchema().safeParse({ sysctls: {}, routes: { "inet:default": "198.51.100.1" } }).success).toBe(
      false,
    );
  });
});

test("each schema is built once and shared", () => {
  expect(hostClaimSchema()).toBe(hostClaimSchema());
  expect(hostOriginalsSchema()).toBe(hostOriginalsSchema());
});
