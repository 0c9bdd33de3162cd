import { Fact } from "./fact";
import { quote } from "../model/shell";

const ABSENT = "@@lvs-pulumi-absent@@";

/**
 * A file's exact content, or null when it does not exist. Read by the shell itself, a line at a time (the last one
 * may lack its newline): a `cat` per file costs a program start, tens of ms on a slow host, and batches read many
 * small files. (Text only: the shell drops NUL bytes, so such a file reads as different and is rewritten.)
 */
export function fileFact(path: string): Fact<string | null> {
  const p = quote(path);
  return {
    command:
      `if [ -e ${p} ]; then lvs_line=; while IFS= read -r lvs_line; do printf '%s\\n' "$lvs_line"; done < ${p}; ` +
      `printf '%s' "$lvs_line"; else printf '%s' '${ABSENT}'; fi`,
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
