import { MARK_RULE_COMMENT_PREFIX, MarkRule, markRuleLine, markRuleSpec } from "../../../provider/model/mark-rule";
import { parseMarkRules } from "../../../provider/facts/mark-rules";
import { iptablesFixture } from "../facts/fixtures";

const rule: MarkRule = { owner: "fwm:7", vip: "198.51.100.51", protocol: "tcp", ports: "80", mark: 7 };

describe("a mark rule's spec", () => {
  it("is how iptables -S lists the rule back, but for the two spellings iptables changes", () => {
    // Every rule of ours in the real listings: the spec that made it, as iptables -S prints it, must be that line.
    const listings = [iptablesFixture("mangle-PREROUTING.txt"), iptablesFixture("ip6-mangle-PREROUTING.txt")];
    for (const listing of listings) {
      const ours = listing.split("\n").filter((line) => line.includes(`"${MARK_RULE_COMMENT_PREFIX}`));
      expect(ours.length).toBeGreaterThan(0);
      const rules = parseMarkRules(listing);
      expect(rules).toHaveLength(ours.length);
      rules.forEach((parsed, i) => {
        const printed = ["-A", "PREROUTING", ...markRuleSpec(parsed)]
          .join(" ")
          .replace(/--comment (\S+)/, '--comment "$1"')
          .replace(/--set-mark (\d+)$/, (_m, mark: string) => `--set-xmark 0x${Number(mark).toString(16)}/0xffffffff`);
        expect(printed).toBe(ours[i]);
      });
    }
  });

  it("matches the VIP as a host, with the family's host mask", () => {
    expect(markRuleSpec(rule).slice(0, 2)).toEqual(["-d", "198.51.100.51/32"]);
    expect(markRuleSpec({ ...rule, vip: "2001:db8:1::100" }).slice(0, 2)).toEqual(["-d", "2001:db8:1::100/128"]);
  });

  it("carries its owner in the comment, so rules without it are never taken for ours", () => {
    const spec = markRuleSpec({ ...rule, owner: "fwm6:9" });
    expect(spec[spec.indexOf("--comment") + 1]).toBe("lvs-pulumi:fwm6:9");
  });

  it("loads the protocol's match module for --dport (iptables refuses --dport without it)", () => {
    const spec = markRuleSpec({ ...rule, protocol: "sctp", ports: "8000:8100" });
    expect(spec.slice(2, 8)).toEqual(["-p", "sctp", "-m", "sctp", "--dport", "8000:8100"]);
  });
});

test("a replay line starts with the family's tool, then the spec", () => {
  expect(markRuleLine(rule)).toEqual(["iptables", ...markRuleSpec(rule)]);
  const v6 = { ...rule, vip: "2001:db8:1::100" };
  expect(markRuleLine(v6)).toEqual(["ip6tables", ...markRuleSpec(v6)]);
});
