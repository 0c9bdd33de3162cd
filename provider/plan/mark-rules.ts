import { MarkRule, markRuleSpec } from "../model/mark-rule";
import { iptablesCommand, ruleFamily } from "../model/iptables";

// A fwmark service carries traffic only once packets get its mark: one mangle PREROUTING rule per VIP and port (range).

const sameMarkRule = (a: MarkRule, b: MarkRule) =>
  a.owner === b.owner && a.vip === b.vip && a.protocol === b.protocol && a.ports === b.ports && a.mark === b.mark;

const withVerb = (rule: MarkRule, verb: "-A" | "-D") =>
  iptablesCommand(ruleFamily(rule), "-t", "mangle", verb, "PREROUTING", ...markRuleSpec(rule));

/**
 * Converges `owner`'s mark rules to `desired` (empty: removes them all). `live` is the same family's listing: rules
 * of `owner` that are not desired any more (an update of the match, a hand edit) are deleted, after the new ones are
 * added so that no packet of a kept port goes unmarked. Other owners' rules and foreign rules are never touched.
 */
export function planMarkRules(owner: string, desired: MarkRule[], live: MarkRule[]): string[] {
  const missing = desired.filter((rule) => !live.some((l) => sameMarkRule(rule, l)));
  const stale = live.filter((rule) => rule.owner === owner && !desired.some((d) => sameMarkRule(rule, d)));
  return [...missing.map((rule) => withVerb(rule, "-A")), ...stale.map((rule) => withVerb(rule, "-D"))];
}
