import { command, quote } from "./shell";

/** A file we own: its wanted content (null: it must not exist) and mode. */
export interface OwnedFile {
  path: string;
  content: string | null;
  mode?: string;
}

/**
 * Commands for only the files whose live content differs. Content goes through quote() like any other value; a
 * temp file plus rename keeps a reader (systemd at boot) from ever seeing half a file.
 */
export function planFiles(wanted: OwnedFile[], live: Record<string, string | null>): string[] {
  const commands: string[] = [];
  for (const file of wanted) {
    const current = live[file.path] ?? null;
    if (current === file.content) continue;
    if (file.content === null) {
      commands.push(command("rm", "-f", file.path));
      continue;
    }
    const dir = file.path.slice(0, file.path.lastIndexOf("/")) || "/";
    const tmp = `${file.path}.lvs-pulumi-tmp`;
    commands.push(
      `${command("mkdir", "-p", dir)} && printf '%s' ${quote(file.content)} > ${quote(tmp)} && ` +
        `${command("chmod", file.mode ?? "0644", tmp)} && ${command("mv", "-f", tmp, file.path)}`,
    );
  }
  return commands;
}

/** Removes our folders that are left empty (children first); non-empty ones are kept silently. */
export function pruneEmptyDirs(dirs: string[]): string {
  return `${command("rmdir", ...dirs)} 2>/dev/null || true`;
}
