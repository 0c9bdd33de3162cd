import { Fact } from "./fact";

/** A fullnat SNAT rule: packets IPVS sends for VIP:port leave with source DIP. */
export interface SnatRule {
  vip: string;
  port: number;
  toSource: string;
}

/**
 * SNAT rules with an ipvs match from `iptables -t nat -S POSTROUTING` (or ip6tables). iptables prints a host
 * --vaddr without its /32 (/128), so the mask is dropped when present.
 */
export function parseSnatRules(stdout: string): SnatRule[] {
  const rules: SnatRule[] = [];
  for (const line of stdout.split("\n")) {
    const tokens = line.trim().split(/\s+/);
    if (tokens[0] !== "-A" || tokens[1] !== "POSTROUTING") continue;
    const option = (name: string) => {
      const at = tokens.indexOf(name);
      return at < 0 ? undefined : tokens[at + 1];
    };
    const vaddr = option("--vaddr");
    const vport = option("--vport");
    const toSource = option("--to-source");
    if (option("-j") !== "SNAT" || vaddr === undefined || vport === undefined || toSource === undefined) continue;
    rules.push({ vip: vaddr.replace(/\/(32|128)$/, ""), port: Number(vport), toSource });
  }
  return rules;
}

export function snatRulesFact(family: "inet" | "inet6"): Fact<SnatRule[]> {
  const tool = family === "inet" ? "iptables" : "ip6tables";
  return { command: `${tool} -t nat -S POSTROUTING`, parse: parseSnatRules };
}
