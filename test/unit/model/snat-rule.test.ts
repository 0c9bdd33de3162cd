import { sameSnatRule, SnatRule, snatRuleLine, snatRuleSpec } from "../../../provider/model/snat-rule";
import { parseSnatRules } from "../../../provider/facts/snat-rules";

const rule: SnatRule = { vip: "203.0.113.101", port: 80, rip: "198.51.100.131", toSource: "198.51.100.1" };

describe("a fullnat SNAT rule's spec", () => {
  it("selects one real server (-d, the RIP after IPVS) of one service (--vaddr/--vport) and sets the DIP", () => {
    expect(snatRuleSpec(rule)).toEqual([
      "-d",
      "198.51.100.131/32",
      "-m",
      "ipvs",
      "--vaddr",
      "203.0.113.101/32",
      "--vport",
      "80",
      "-j",
      "SNAT",
      "--to-source",
      "198.51.100.1",
    ]);
  });

  it("uses the IPv6 host mask for an IPv6 service", () => {
    const v6 = { vip: "2001:db8::40", port: 443, rip: "2001:db8:2::21", toSource: "2001:db8:1::1" };
    const spec = snatRuleSpec(v6);
    expect(spec[spec.indexOf("-d") + 1]).toBe("2001:db8:2::21/128");
    expect(spec[spec.indexOf("--vaddr") + 1]).toBe("2001:db8::40/128");
  });

  it("reads back as the same rule from the listing iptables prints for it (host --vaddr without its mask)", () => {
    const listed = ["-A", "POSTROUTING", ...snatRuleSpec(rule)]
      .join(" ")
      .replace("--vaddr 203.0.113.101/32", "--vaddr 203.0.113.101");
    const [read] = parseSnatRules(`${listed}\n`);
    expect(sameSnatRule(rule, read)).toBe(true);
  });
});

test("two SNAT rules are the same only when VIP, port, RIP and source all are", () => {
  expect(sameSnatRule(rule, { ...rule })).toBe(true);
  expect(sameSnatRule(rule, undefined)).toBe(false);
  expect(sameSnatRule(rule, { ...rule, vip: "203.0.113.102" })).toBe(false);
  expect(sameSnatRule(rule, { ...rule, port: 443 })).toBe(false);
  expect(sameSnatRule(rule, { ...rule, rip: "198.51.100.132" })).toBe(false);
  expect(sameSnatRule(rule, { ...rule, toSource: "198.51.100.2" })).toBe(false);
});

test("a replay line starts with the family's tool, then the spec", () => {
  expect(snatRuleLine(rule)).toEqual(["iptables", ...snatRuleSpec(rule)]);
  const v6 = { vip: "2001:db8::40", port: 80, rip: "2001:db8:2::21", toSource: "2001:db8:1::1" };
  expect(snatRuleLine(v6)).toEqual(["ip6tables", ...snatRuleSpec(v6)]);
});
