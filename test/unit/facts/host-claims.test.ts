import { hostClaimsFact, hostOriginalsFact } from "../../../provider/facts/host-claims";

describe("claim and originals files", () => {
  it("reads one claim per line", () => {
    const fact = hostClaimsFact();
    expect(fact.command).toBe("cat /etc/lvs-pulumi/claims.d/*.json 2>/dev/null || true");
    const claim = {
      id: "web-1",
      vips: [{ dev: "lo", cidr: "203.0.113.101/32" }],
      sysctls: {},
      routes: [],
      modules: [],
      links: [],
    };
    expect(fact.parse(`${JSON.stringify(claim)}\n${JSON.stringify({ ...claim, id: "web-2" })}\n`)).toEqual([
      claim,
      { ...claim, id: "web-2" },
    ]);
    expect(fact.parse("")).toEqual([]);
    expect(() => fact.parse('{"id":"broken"}\n')).toThrow();
  });

  it("reads originals, empty when nothing was changed yet", () => {
    const fact = hostOriginalsFact();
    expect(fact.parse("")).toEqual({ sysctls: {}, routes: {} });
    expect(fact.parse('{"sysctls":{"net.ipv4.conf.all.arp_ignore":"0"},"routes":{"inet:default":null}}')).toEqual({
      sysctls: { "net.ipv4.conf.all.arp_ignore": "0" },
      routes: { "inet:default": null },
    });
  });
});
