import { iptablesCommand } from "../model/iptables";
import { Family } from "../model/ip";
import { SnatRule } from "../model/snat-rule";
import { Fact } from "./fact";

const HOST_MASK = /\/(32|128)$/;

/**
 * SNAT rules with an ipvs match and a destination from `iptables -t nat -S POSTROUTING` (or ip6tables).
 * iptables prints a host --vaddr without its /32 (/128) but keeps it on -d, so the host mask is dropped from both.
 * Rules without a plain host `-d` are not ours and are skipped.
 */
export function parseSnatRules(stdout: string): SnatRule[] {
  const rules: SnatRule[] = [];
  for (const line of stdout.split("\n")) {
    const tokens = line.trim().split(/\s+/);
    if (tokens[0] !== "-A" || tokens[1] !== "POSTROUTING") continue;
    const option = (name: string) => {
      const at = tokens.indexOf(name);
      return at < 0 || tokens[at - 1] === "!" ? undefined : tokens[at + 1];
    };
    const vaddr = option("--vaddr");
    const vport = option("--vport");
    const destination = option("-d");
    const toSource = option("--to-source");
    if (option("-j") !== "SNAT" || vaddr === undefined || vport === undefined || toSource === undefined) continue;
    if (destination === undefined || (destination.includes("/") && !HOST_MASK.test(destination))) continue;
    rules.push({
      vip: vaddr.replace(HOST_MASK, ""),
      port: Number(vport),
      rip: destination.replace(HOST_MASK, ""),
      toSource,
    });
  }
  return rules;
}

export function snatRulesFact(family: Family): Fact<SnatRule[]> {
  return { command: iptablesCommand(family, "-t", "nat", "-S", "POSTROUTING"), parse: parseSnatRules };
}
