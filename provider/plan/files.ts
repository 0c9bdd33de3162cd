import { createHash } from "crypto";
import { OwnedFile, Step } from "./step";
import { command, quote } from "../model/shell";

/**
 * Steps for only the files whose live content differs. Content goes through quote() like any other value; a
 * temp file plus rename keeps a reader (systemd at boot) from ever seeing half a file. The change log records a
 * write by size and digest: bodies (recorded originals among them) stay out of it.
 */
export function planFiles(wanted: OwnedFile[], live: Record<string, string | null>): Step[] {
  const commands: Step[] = [];
  for (const file of wanted) {
    const current = live[file.path] ?? null;
    if (current === file.content) continue;
    if (file.content === null) {
      commands.push({ remove: file.path });
      continue;
    }
    const dir = file.path.slice(0, file.path.lastIndexOf("/")) || "/";
    const tmp = `${file.path}.lvs-pulumi-tmp`;
    const mode = file.mode ?? "0644";
    const digest = createHash("sha256").update(file.content).digest("hex").slice(0, 16);
    // Every program started costs tens of ms on a slow host and a batch writes many files: the shell's own tests and
    // umask do what they can (a new file gets 0666 minus the umask, so only a mode with execute bits needs chmod).
    // One command a line, or the last of an || list: `set -e` stops the script at no other failure in such a list.
    const { umask, chmod } = modeBits(mode);
    commands.push({
      run: [
        `[ -d ${quote(dir)} ] || ${command("mkdir", "-p", dir)}`,
        `[ ! -e ${quote(tmp)} ] || ${command("rm", "-f", tmp)}`,
        `(umask ${umask} && printf '%s' ${quote(file.content)} > ${quote(tmp)})`,
        ...(chmod ? [command("chmod", mode, tmp)] : []),
        command("mv", "-f", tmp, file.path),
      ].join("\n"),
      audit: `write ${file.path} (mode ${mode}, ${Buffer.byteLength(file.content)} bytes, sha256:${digest})`,
      file: { ...file, mode },
    });
  }
  return commands;
}

/**
 * How a write gets file mode `mode` (octal text): the umask a new file is created under (0666 minus it), and whether
 * a chmod must follow (only execute bits, which no umask grants).
 */
export function modeBits(mode: string): { umask: string; chmod: boolean } {
  const permissions = Number.parseInt(mode, 8);
  return { umask: (0o777 & ~permissions).toString(8).padStart(4, "0"), chmod: (permissions & 0o111) !== 0 };
}

/**
 * The folder in `dir` where a batch stages the files it writes there, moved into place together (batch-script.ts):
 * on the same filesystem, so each move is a rename; a dot name, so no glob of the boot replay or keepalived sees it.
 */
export function stageDir(dir: string): string {
  return `${dir}/.lvs-pulumi-stage`;
}

/** Removes our folders that are left empty (children first); non-empty ones are kept silently. */
export function pruneEmptyDirs(dirs: string[]): string {
  return `${command("rmdir", ...dirs)} 2>/dev/null || true`;
}

/** pruneEmptyDirs for folders that batches write to: their stage folders go first, with anything a cut-off batch left. */
export function pruneBatchDirs(dirs: string[]): string {
  return `${command("rm", "-rf", ...dirs.map(stageDir))}\n${pruneEmptyDirs(dirs)}`;
}
