import { SnatRule } from "../facts/snat-rules";
import { snatRuleSpec } from "../plan/snat";

/** One line "<iptables|ip6tables> <spec>"; the restore script adds it to nat POSTROUTING unless `-C` finds it. */
export function renderSnatRule(rule: SnatRule): string {
  return `${snatRuleSpec(rule).join(" ")}\n`;
}
