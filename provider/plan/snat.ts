import { SnatRule } from "../facts/snat-rules";
import { hostPrefixLength } from "../schemas/ip";
import { iptablesCommand, iptablesTool, ruleFamily } from "./iptables";

// fullnat = IPVS masquerading plus this rule, so the real server sees the DIP as source and replies to the director.

/** The rule spec that follows `-t nat -A POSTROUTING`. */
function ruleSpec(rule: SnatRule): string[] {
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

function withVerb(rule: SnatRule, verb: "-A" | "-D"): string {
  return iptablesCommand(ruleFamily(rule), "-t", "nat", verb, "POSTROUTING", ...ruleSpec(rule));
}

export function sameSnatRule(a: SnatRule, b: SnatRule | undefined): boolean {
  return b !== undefined && a.vip === b.vip && a.port === b.port && a.rip === b.rip && a.toSource === b.toSource;
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

/** The tool and the rule spec that follows `-t nat -A POSTROUTING`, for the boot-time replay file. */
export function snatRuleSpec(rule: SnatRule): string[] {
  return [iptablesTool(ruleFamily(rule)), ...ruleSpec(rule)];
}
