import { Family, ipFamily } from "./ip";
import { command } from "./shell";

/** The tool of `family`'s rules; a boot-replay fragment line starts with it. */
export function iptablesTool(family: Family): "iptables" | "ip6tables" {
  return family === "inet6" ? "ip6tables" : "iptables";
}

/**
 * Wait for the xtables lock instead of failing when another process holds it: on iptables-legacy hosts a lock race
 * at boot failed the restore unit, which kept keepalived down. iptables-nft accepts and ignores it. Fragment lines
 * stay "<tool> <spec>" and whoever runs the tool adds it, so fragments written before it replay with it too.
 */
export const XTABLES_WAIT = "-w";

/** A SNAT or mark rule's family: its VIP's (they are validated literals; inet is only the type's fallback). */
export function ruleFamily(rule: { vip: string }): Family {
  return ipFamily(rule.vip) ?? "inet";
}

/** An iptables (ip6tables for inet6) command line that waits for the xtables lock. */
export function iptablesCommand(family: Family, ...args: string[]): string {
  return command(iptablesTool(family), XTABLES_WAIT, ...args);
}
