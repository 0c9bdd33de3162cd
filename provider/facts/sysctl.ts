import { quote } from "../model/shell";
import { Fact } from "./fact";

/** "key = value" lines as `sysctl -a` and `sysctl <keys>` print them. */
export function parseSysctlLines(stdout: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of stdout.split("\n")) {
    const at = line.indexOf(" = ");
    if (at > 0) values[line.slice(0, at).trim()] = line.slice(at + 3).trim();
  }
  return values;
}

/** Current values of the given keys; -e skips keys the kernel lacks (e.g. net.ipv4.vs.* before ip_vs loads). */
export function sysctlFact(keys: string[]): Fact<Record<string, string>> {
  return {
    command: keys.length === 0 ? "true" : `sysctl -e ${keys.map(quote).join(" ")}`,
    parse: parseSysctlLines,
  };
}
