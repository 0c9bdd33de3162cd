import { hostPrefixLength } from "./ip";
import { iptablesTool, ruleFamily } from "./iptables";

/**
 * A fullnat SNAT rule: packets IPVS masquerades for VIP:port towards the real server RIP leave with source DIP.
 * Per destination, not per service: real servers of one service may need different DIPs, and removing one real
 * server must not remove the rule another still uses.
 */
export interface SnatRule {
  vip: string;
  port: number;
  rip: string;
  toSource: string;
}

/** The rule spec that follows `-t nat -A POSTROUTING`. */
export function snatRuleSpec(rule: SnatRule): string[] {
  const host = hostPrefixLength(ruleFamily(rule));
  return [
    // In POSTROUTING the destination is already the RIP (IPVS masqueraded it), so -d makes the rule per real server.
    "-d",
    `${rule.rip}/${host}`,
    "-m",
    "ipvs",
    "--vaddr",
    `${rule.vip}/${host}`,
    "--vport",
    String(rule.port),
    "-j",
    "SNAT",
    "--to-source",
    rule.toSource,
  ];
}

export function sameSnatRule(a: SnatRule, b: SnatRule | undefined): boolean {
  return b !== undefined && a.vip === b.vip && a.port === b.port && a.rip === b.rip && a.toSource === b.toSource;
}

/** The tool and the rule spec that follows `-t nat -A POSTROUTING`, for the boot-time replay file. */
export function snatRuleLine(rule: SnatRule): string[] {
  return [iptablesTool(ruleFamily(rule)), ...snatRuleSpec(rule)];
}
