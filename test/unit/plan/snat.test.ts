import { stepRun } from "../../../provider/plan/step";
import { parseSnatRules } from "../../../provider/facts/snat-rules";
import { planSnatRemoval, planSnatRule, planSnatRuleRemoval } from "../../../provider/plan/snat";
import { renderSnatRule } from "../../../provider/render/snat-rules";
import { snatFragmentPath } from "../../../provider/model/host-paths";

const rule = { vip: "198.51.100.43", port: 80, rip: "198.51.100.21", toSource: "198.51.100.11" };

describe("fullnat SNAT rule", () => {
  it("adds a missing rule", () => {
    expect(planSnatRule(rule, [])).toEqual([
      "iptables -w -t nat -A POSTROUTING -d 198.51.100.21/32 -m ipvs --vaddr 198.51.100.43/32 --vport 80 -j SNAT --to-source 198.51.100.11",
    ]);
  });

  it("is converged when iptables lists it (without the /32 on --vaddr)", () => {
    const live = parseSnatRules(
      "-A POSTROUTING -d 198.51.100.21/32 -m ipvs --vaddr 198.51.100.43 --vport 80 -j SNAT --to-source 198.51.100.11\n",
    );
    expect(planSnatRule(rule, live)).toEqual([]);
  });

  it("uses ip6tables and /128 for IPv6", () => {
    expect(
      planSnatRule({ vip: "2001:db8::1", port: 443, rip: "2001:db8:2::21", toSource: "2001:db8:1::1" }, []),
    ).toEqual([
      "ip6tables -w -t nat -A POSTROUTING -d 2001:db8:2::21/128 -m ipvs --vaddr 2001:db8::1/128 --vport 443 -j SNAT --to-source 2001:db8:1::1",
    ]);
  });

  it("deletes only a present rule", () => {
    expect(planSnatRuleRemoval(rule, [rule])).toEqual([
      "iptables -w -t nat -D POSTROUTING -d 198.51.100.21/32 -m ipvs --vaddr 198.51.100.43/32 --vport 80 -j SNAT --to-source 198.51.100.11",
    ]);
    expect(planSnatRuleRemoval(rule, [{ ...rule, toSource: "198.51.100.12" }])).toEqual([]);
  });

  it("keeps real servers of one service apart, even with different SNAT sources", () => {
    const other = { ...rule, rip: "198.51.100.22", toSource: "192.0.2.11" };
    const live = parseSnatRules(
      "-A POSTROUTING -d 198.51.100.21/32 -m ipvs --vaddr 198.51.100.43 --vport 80 -j SNAT --to-source 198.51.100.11\n" +
        "-A POSTROUTING -d 198.51.100.22/32 -m ipvs --vaddr 198.51.100.43 --vport 80 -j SNAT --to-source 192.0.2.11\n",
    );
    expect(planSnatRule(rule, live)).toEqual([]);
    expect(planSnatRule(other, live)).toEqual([]);
    // The other real server's rule does not stand in for a missing one.
    expect(planSnatRule(rule, [other])).toHaveLength(1);

    // Removing one real server deletes its own rule only ...
    const removal = planSnatRuleRemoval(rule, live);
    expect(removal).toEqual([
      "iptables -w -t nat -D POSTROUTING -d 198.51.100.21/32 -m ipvs --vaddr 198.51.100.43/32 --vport 80 -j SNAT --to-source 198.51.100.11",
    ]);
    // ... and the other one's stays converged afterwards.
    const after = live.filter((r) => r.rip !== rule.rip);
    expect(planSnatRule(other, after)).toEqual([]);
    expect(planSnatRuleRemoval(rule, after)).toEqual([]);
  });
});

describe("a real server's SNAT rule removed", () => {
  const path = snatFragmentPath("tcp:198.51.100.43:80/198.51.100.21:80");
  const live = parseSnatRules(
    "-P POSTROUTING ACCEPT\n" +
      "-A POSTROUTING -d 198.51.100.21/32 -m ipvs --vaddr 198.51.100.43 --vport 80 -j SNAT --to-source 198.51.100.11\n",
  );
  // A file an earlier version wrote under another name (plan/former-files.ts found it is this rule's).
  const former = { path: `${path}.former`, content: renderSnatRule(rule) };

  it("its boot file and the one under its former name go, then the rule", () => {
    expect(
      planSnatRemoval(rule, path, false, { rules: live, fragment: renderSnatRule(rule) }, former).map(stepRun),
    ).toEqual([
      `rm -f ${path}`,
      `rm -f ${former.path}`,
      "iptables -w -t nat -D POSTROUTING -d 198.51.100.21/32 -m ipvs --vaddr 198.51.100.43/32 --vport 80 -j SNAT --to-source 198.51.100.11",
    ]);
  });

  it("an update keeping a rule of that key keeps the file (it is rewritten); what is gone already is not touched", () => {
    expect(
      planSnatRemoval(rule, path, true, { rules: live, fragment: renderSnatRule(rule) }, undefined).map(stepRun),
    ).toEqual([
      "iptables -w -t nat -D POSTROUTING -d 198.51.100.21/32 -m ipvs --vaddr 198.51.100.43/32 --vport 80 -j SNAT --to-source 198.51.100.11",
    ]);
    expect(planSnatRemoval(rule, path, false, { rules: [], fragment: null }, undefined).map(stepRun)).toEqual([]);
  });
});
