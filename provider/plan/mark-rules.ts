import { MarkRule, markRuleSpec } from "../model/mark-rule";
import { iptablesCommand, ruleFamily } from "../model/iptables";
import { renderMarkRules } from "../render/mark-rules";
import { ServiceIdentityFields } from "../schemas/service-identity";
import { desiredMarkRules } from "./desired-entries";
import { planFiles } from "./files";
import { Step } from "./step";

// A fwmark service carries traffic only once packets get its mark: one mangle PREROUTING rule per VIP and port (range).

const sameMarkRule = (a: MarkRule, b: MarkRule) =>
  a.owner === b.owner && a.vip === b.vip && a.protocol === b.protocol && a.ports === b.ports && a.mark === b.mark;

const markRuleCommand = (rule: MarkRule, verb: "-A" | "-D") =>
  iptablesCommand(ruleFamily(rule), "-t", "mangle", verb, "PREROUTING", ...markRuleSpec(rule));

/**
 * Converges `owner`'s mark rules to `desired` (empty: removes them all). `live` is the same family's listing: rules
 * of `owner` that are not desired any more (an update of the match, a hand edit) are deleted, after the new ones are
 * added so that no packet of a kept port goes unmarked. Other owners' rules and foreign rules are never touched.
 */
export function planMarkRules(owner: string, desired: MarkRule[], live: MarkRule[]): string[] {
  const missing = desired.filter((rule) => !live.some((l) => sameMarkRule(rule, l)));
  const stale = live.filter((rule) => rule.owner === owner && !desired.some((d) => sameMarkRule(rule, d)));
  return [...missing.map((rule) => markRuleCommand(rule, "-A")), ...stale.map((rule) => markRuleCommand(rule, "-D"))];
}

/**
 * Service `owner`'s mark rules and their boot file at `path`, converged to its match (`identity`; none when
 * `removing`): `live` is the service family's listing, `liveFile` the file's content.
 */
export function planServiceMarks(
  owner: string,
  identity: ServiceIdentityFields,
  path: string,
  removing: boolean,
  live: MarkRule[],
  liveFile: string | null,
): Step[] {
  const rules = removing ? [] : desiredMarkRules(identity);
  return [
    ...planFiles([{ path, content: rules.length > 0 ? renderMarkRules(rules) : null }], { [path]: liveFile }),
    ...planMarkRules(owner, rules, live),
  ];
}
