import { MarkRule, markRuleLine } from "../model/mark-rule";

/** One line "<iptables|ip6tables> <spec>" per rule; the restore script adds each to mangle PREROUTING unless `-C` finds it. */
export function renderMarkRules(rules: MarkRule[]): string {
  return rules.map((rule) => `${markRuleLine(rule).join(" ")}\n`).join("");
}
