import { SnatRule, snatRuleLine } from "../model/snat-rule";

/** One line "<iptables|ip6tables> <spec>"; the restore script adds it to nat POSTROUTING unless `-C` finds it. */
export function renderSnatRule(rule: SnatRule): string {
  return `${snatRuleLine(rule).join(" ")}\n`;
}
