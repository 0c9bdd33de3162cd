import { iptablesCommand } from "../plan/iptables";
import { Family } from "../schemas/ip";
import { PROTOCOLS, Protocol } from "../schemas/vocabulary";
import { Fact } from "./fact";

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
