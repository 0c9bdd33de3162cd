import { sameSnatRule, SnatRule, snatRuleSpec } from "../model/snat-rule";
import { iptablesCommand, ruleFamily } from "../model/iptables";

// fullnat = IPVS masquerading plus this rule, so the real server sees the DIP as source and replies to the director.

function withVerb(rule: SnatRule, verb: "-A" | "-D"): string {
  return iptablesCommand(ruleFamily(rule), "-t", "nat", verb, "POSTROUTING", ...snatRuleSpec(rule));
}

function present(rule: SnatRule, live: SnatRule[]): boolean {
  return live.some((r) => sameSnatRule(rule, r));
}

/** `live` comes from the same family's `iptables -t nat -S POSTROUTING`. */
export function planSnatRule(desired: SnatRule, live: SnatRule[]): string[] {
  return present(desired, live) ? [] : [withVerb(desired, "-A")];
}

export function planSnatRuleRemoval(rule: SnatRule, live: SnatRule[]): string[] {
  return present(rule, live) ? [withVerb(rule, "-D")] : [];
}
