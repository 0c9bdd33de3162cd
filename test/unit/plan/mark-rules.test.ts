import { MarkRule } from "../../../provider/model/mark-rule";
import { parseMarkRules } from "../../../provider/facts/mark-rules";
import { planMarkRules } from "../../../provider/plan/mark-rules";
import { iptablesFixture } from "../facts/fixtures";

const rule = (ports: string, over: Partial<MarkRule> = {}): MarkRule => ({
  owner: "fwm:7",
  vip: "198.51.100.51",
  protocol: "tcp",
  ports,
  mark: 7,
  ...over,
});
const live = parseMarkRules(iptablesFixture("mangle-PREROUTING.txt"));

describe("fwmark mark rules", () => {
  it("adds missing rules to mangle PREROUTING, one per VIP and port (range)", () => {
    expect(planMarkRules("fwm:7", [rule("80"), rule("8443:8444")], [])).toEqual([
      "iptables -w -t mangle -A PREROUTING -d 198.51.100.51/32 -p tcp -m tcp --dport 80 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7",
      "iptables -w -t mangle -A PREROUTING -d 198.51.100.51/32 -p tcp -m tcp --dport 8443:8444 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7",
    ]);
  });

  it("is converged when iptables lists them (as --set-xmark, comment quoted)", () => {
    expect(planMarkRules("fwm:7", [rule("80"), rule("8000:8100")], live)).toEqual([]);
  });

  it("a new match adds the new rules first, then deletes the owner's old ones", () => {
    expect(planMarkRules("fwm:7", [rule("80"), rule("8000:8200")], live)).toEqual([
      "iptables -w -t mangle -A PREROUTING -d 198.51.100.51/32 -p tcp -m tcp --dport 8000:8200 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7",
      "iptables -w -t mangle -D PREROUTING -d 198.51.100.51/32 -p tcp -m tcp --dport 8000:8100 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7",
    ]);
  });

  it("removal deletes only the owner's rules: never another service's, never a foreign rule", () => {
    const steps = planMarkRules("fwm:7", [], live);
    expect(steps).toHaveLength(2);
    expect(
      steps.every((step) => step.startsWith("iptables -w -t mangle -D PREROUTING") && step.includes("fwm:7 ")),
    ).toBe(true);
    expect(planMarkRules("fwm:8", [], live)).toEqual([]);
  });

  it("uses ip6tables and /128 for IPv6", () => {
    expect(planMarkRules("fwm6:9", [rule("443", { owner: "fwm6:9", vip: "2001:db8:1::100", mark: 9 })], [])).toEqual([
      "ip6tables -w -t mangle -A PREROUTING -d 2001:db8:1::100/128 -p tcp -m tcp --dport 443 -m comment --comment lvs-pulumi:fwm6:9 -j MARK --set-mark 9",
    ]);
  });
});
