import { parseHostClaims, parseHostOriginals } from "../../../provider/facts/host-claims";
import { HostClaim } from "../../../provider/model/host-claim";
import { renderClaimFile, renderOriginalsFile } from "../../../provider/render/claim-file";

test("claim files are one line of JSON and read back", () => {
  const claim: HostClaim = {
    id: "web-1",
    vips: [{ dev: "lo", cidr: "203.0.113.101/32" }],
    sysctls: { "net.ipv4.conf.all.arp_ignore": "1" },
    routes: [],
    modules: [],
    links: [],
  };
  expect(renderClaimFile(claim)).toBe(
    '{"id":"web-1","vips":[{"dev":"lo","cidr":"203.0.113.101/32"}],"sysctls":{"net.ipv4.conf.all.arp_ignore":"1"},"routes":[],"modules":[],"links":[]}\n',
  );
  expect(parseHostClaims(renderClaimFile(claim) + renderClaimFile({ ...claim, id: "web-2" }))).toHaveLength(2);
});

test("originals file", () => {
  const originals = {
    sysctls: { "net.ipv4.conf.all.arp_ignore": "0" },
    routes: { "inet:default": { via: "192.0.2.1", dev: "eth0" } },
  };
  expect(renderOriginalsFile(originals)).toBe(`{
  "sysctls": {
    "net.ipv4.conf.all.arp_ignore": "0"
  },
  "routes": {
    "inet:default": {
      "via": "192.0.2.1",
      "dev": "eth0"
    }
  }
}
`);
  expect(parseHostOriginals(renderOriginalsFile(originals))).toEqual(originals);
});
