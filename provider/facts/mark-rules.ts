import { iptablesCommand } from "../model/iptables";
import { Family } from "../model/ip";
import { MARK_RULE_COMMENT_PREFIX, MarkRule } from "../model/mark-rule";
import { PROTOCOLS, Protocol } from "../model/vocabulary";
import { Fact } from "./fact";

const RULE = new RegExp(
  "^-A PREROUTING -d (\\S+)/(?:32|128) -p (\\S+) -m \\2 --dport (\\d+(?::\\d+)?) " +
    `-m comment --comment "?${MARK_RULE_COMMENT_PREFIX}([^"\\s]+)"? -j MARK --set-xmark 0x([0-9a-f]+)/0xffffffff$`,
);

/**
 * Our mark rules from `iptables -t mangle -S PREROUTING` (or ip6tables). iptables prints `--set-mark N` as
 * `--set-xmark 0xN/0xffffffff` and quotes the comment. Only rules of exactly our shape are read: anything else in the
 * chain (other matches, another target, no comment of ours) is not ours.
 */
export function parseMarkRules(stdout: string): MarkRule[] {
  const rules: MarkRule[] = [];
  for (const line of stdout.split("\n")) {
    const found = RULE.exec(line.trim());
    if (!found) continue;
    const [, vip, protocol, ports, owner, mark] = found;
    if (!(PROTOCOLS as readonly string[]).includes(protocol)) continue;
    rules.push({ owner, vip, protocol: protocol as Protocol, ports, mark: parseInt(mark, 16) });
  }
  return rules;
}

export function markRulesFact(family: Family): Fact<MarkRule[]> {
  return { command: iptablesCommand(family, "-t", "mangle", "-S", "PREROUTING"), parse: parseMarkRules };
}
