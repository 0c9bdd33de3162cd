import { sameSnatRule, SnatRule, snatRuleSpec } from "../model/snat-rule";
import { iptablesCommand, ruleFamily } from "../model/iptables";
import { planFiles } from "./files";
import { FormerFile, planFormerFileRemoval } from "./former-files";
import { Step } from "./step";

// fullnat = IPVS masquerading plus this rule, so the real server sees the DIP as source and replies to the director.

function snatRuleCommand(rule: SnatRule, verb: "-A" | "-D"): string {
  return iptablesCommand(ruleFamily(rule), "-t", "nat", verb, "POSTROUTING", ...snatRuleSpec(rule));
}

function present(rule: SnatRule, live: SnatRule[]): boolean {
  return live.some((r) => sameSnatRule(rule, r));
}

/** `live` comes from the same family's `iptables -t nat -S POSTROUTING`. */
export function planSnatRule(desired: SnatRule, live: SnatRule[]): string[] {
  return present(desired, live) ? [] : [snatRuleCommand(desired, "-A")];
}

export function planSnatRuleRemoval(rule: SnatRule, live: SnatRule[]): string[] {
  return present(rule, live) ? [snatRuleCommand(rule, "-D")] : [];
}

/**
 * A real server's SNAT rule `rule` deleted, with its boot file at `path` (`live.fragment`: its content) unless
 * `keepFile` (an update still has a rule of that key, which rewrites it) and the file under its former name.
 */
export function planSnatRemoval(
  rule: SnatRule,
  path: string,
  keepFile: boolean,
  live: { rules: SnatRule[]; fragment: string | null },
  former: FormerFile | undefined,
): Step[] {
  return [
    ...(keepFile ? [] : planFiles([{ path, content: null }], { [path]: live.fragment })),
    ...planFormerFileRemoval(former),
    ...planSnatRuleRemoval(rule, live.rules),
  ];
}
