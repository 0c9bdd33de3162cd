import { header } from "./header";

/** sysctl.d(5) "key = value" lines, in key order so the file is stable. */
export function renderSysctlConf(sysctls: Record<string, string>): string {
  const lines = Object.keys(sysctls)
    .sort()
    .map((key) => `${key} = ${sysctls[key]}\n`);
  return header() + lines.join("");
}
