// Whole-file reads and atomic writes over exec channels (no SFTP: it cannot go through sudo).
import { ConnectionSpec } from "./connection";
import { commandError, run } from "./exec";
import { quote } from "../plan/shell";

// `cat` exits 0 or 1, so this code unambiguously means "no such file".
const MISSING = 44;

/**
 * Write `content` to `path` atomically: a temp file in the same directory (same filesystem, so
 * `mv` is a rename), then rename over the target. Content travels on stdin, never on the command line.
 * `mode` is numeric, e.g. 0o600; default 0o644.
 */
export async function writeFile(
  spec: ConnectionSpec,
  path: string,
  content: string | Buffer,
  mode = 0o644,
): Promise<void> {
  const octal = (mode & 0o7777).toString(8);
  const script = [
    "set -e",
    "umask 077", // temp file is private until chmod
    `tmp=$(mktemp ${quote(`${path}.lvs-tmp.XXXXXX`)})`,
    `trap 'rm -f "$tmp"' EXIT`,
    `cat >"$tmp"`,
    `chmod ${octal} "$tmp"`,
    `mv -f "$tmp" ${quote(path)}`,
    "trap - EXIT",
  ].join("\n");
  const result = await run(spec, script, { stdin: content });
  if (result.code !== 0) throw commandError(spec, `write ${path}`, result);
}

/** The file's content as UTF-8, or null if it does not exist. */
export async function readFile(spec: ConnectionSpec, path: string): Promise<string | null> {
  const p = quote(path);
  const result = await run(spec, `if [ ! -e ${p} ]; then exit ${MISSING}; fi; exec cat -- ${p}`);
  if (result.code === MISSING) return null;
  if (result.code !== 0) throw commandError(spec, `read ${path}`, result);
  return result.stdout;
}
