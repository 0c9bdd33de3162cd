import { hostPrefixLength } from "./ip";
import { iptablesTool, ruleFamily } from "./iptables";
import { Protocol } from "./vocabulary";

/**
 * A fwmark service's mark rule: packets of `protocol` to `vip` on `ports` ("80" or "8000:8100", as iptables writes
 * them) get `mark` in mangle PREROUTING, before IPVS sees them. `owner` is the service key ("fwm:7"), carried in the
 * rule's comment "lvs-pulumi:<owner>": rules without it are someone else's and never touched.
 */
export interface MarkRule {
  owner: string;
  vip: string;
  protocol: Protocol;
  ports: string;
  mark: number;
}

export const MARK_RULE_COMMENT_PREFIX = "lvs-pulumi:";

/** The rule spec that follows `-t mangle -A PREROUTING`. */
export function markRuleSpec(rule: MarkRule): string[] {
  return [
    "-d",
    `${rule.vip}/${hostPrefixLength(ruleFamily(rule))}`,
    "-p",
    rule.protocol,
    "-m",
    rule.protocol,
    "--dport",
    rule.ports,
    "-m",
    "comment",
    "--comment",
    `${MARK_RULE_COMMENT_PREFIX}${rule.owner}`,
    "-j",
    "MARK",
    "--set-mark",
    String(rule.mark),
  ];
}

/** The tool and the rule spec, for the boot-time replay file. */
export function markRuleLine(rule: MarkRule): string[] {
  return [iptablesTool(ruleFamily(rule)), ...markRuleSpec(rule)];
}
