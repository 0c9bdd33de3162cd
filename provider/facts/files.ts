import { Fact } from "./fact";
import { quote } from "../plan/shell";

const ABSENT = "@@lvs-pulumi-absent@@";

/** A file's exact content, or null when it does not exist. */
export function fileFact(path: string): Fact<string | null> {
  const p = quote(path);
  return {
    command: `if [ -e ${p} ]; then cat -- ${p}; else printf '%s' '${ABSENT}'; fi`,
    parse: (stdout) => (stdout === ABSENT ? null : stdout),
    inShell: true,
  };
}

/** Whether a systemd unit is enabled for multi-user.target (its wants link exists). */
export function unitEnabledFact(unit: string): Fact<boolean> {
  return {
    command: `if [ -L ${quote(`/etc/systemd/system/multi-user.target.wants/${unit}`)} ]; then echo yes; else echo no; fi`,
    parse: (stdout) => stdout.trim() === "yes",
    inShell: true,
  };
}

/** Files in a folder (names only), for "is anything of ours left" decisions. */
export function directoryListingFact(dir: string): Fact<string[]> {
  return {
    command: `ls -1 ${quote(dir)} 2>/dev/null || true`,
    parse: (stdout) => stdout.split("\n").filter((name) => name !== ""),
    inShell: true,
  };
}
