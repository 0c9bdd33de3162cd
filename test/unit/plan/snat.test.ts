import { planSnatRule, planSnatRuleRemoval } from "../../../provider/plan/snat";

const rule = { vip: "203.0.113.101", port: 80, toSource: "198.51.100.1" };

describe("fullnat SNAT rule", () => {
  it("adds a missing rule", () => {
    expect(planSnatRule(rule, [])).toEqual([
      "iptables -t nat -A POSTROUTING -m ipvs --vaddr 203.0.113.101/32 --vport 80 -j SNAT --to-source 198.51.100.1",
    ]);
  });

  it("is converged when iptables lists it (without the /32)", () => {
    expect(planSnatRule(rule, [rule])).toEqual([]);
  });

  it("uses ip6tables and /128 for IPv6", () => {
    expect(planSnatRule({ vip: "2001:db8::1", port: 443, toSource: "2001:db8:1::1" }, [])).toEqual([
      "ip6tables -t nat -A POSTROUTING -m ipvs --vaddr 2001:db8::1/128 --vport 443 -j SNAT --to-source 2001:db8:1::1",
    ]);
  });

  it("deletes only a present rule", () => {
    expect(planSnatRuleRemoval(rule, [rule])).toEqual([
      "iptables -t nat -D POSTROUTING -m ipvs --vaddr 203.0.113.101/32 --vport 80 -j SNAT --to-source 198.51.100.1",
    ]);
    expect(planSnatRuleRemoval(rule, [{ ...rule, toSource: "198.51.100.2" }])).toEqual([]);
  });
});
