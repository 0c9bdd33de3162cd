import { auditLines, Step, stepRun } from "./step";
import { quote } from "../model/shell";

/** Where every changing command we run on a host is recorded, with its time: the audit trail of what we did. */
export const CHANGE_LOG = "/var/log/lvs-pulumi/changes.log";
/** Past this size the log moves to `<log>.1` (one generation kept), so it never grows without bound. */
export const CHANGE_LOG_ROTATE_BYTES = 1024 * 1024;

/** How a script starts: `now` is the time its change log lines carry; `checkLog` rotates and re-modes the log. */
export interface ScriptOptions {
  now?: Date;
  checkLog?: boolean;
}

/** The change log's time format, UTC to the second (as `date -u +%Y-%m-%dT%H:%M:%SZ`). */
export function logTime(now: Date): string {
  return `${now.toISOString().slice(0, 19)}Z`;
}

const FAILED = "lvs-pulumi: failed at step ";

/**
 * The script that runs `steps` in order on a host, recording each in `log` (root only, rotated; with the time the
 * script started) before it runs. It goes on stdin (no argument-size limit); the braces make sh read all of it before
 * any step can read stdin. Every step is a plain command under `set -e`, so the first failure stops the script and
 * names its step on stderr.
 */
export function applyScript(steps: Step[], log = CHANGE_LOG, { now, checkLog = true }: ScriptOptions = {}): string {
  const l = quote(log);
  const logDir = log.slice(0, log.lastIndexOf("/"));
  return [
    "{",
    "set -e",
    "lvs_step=0",
    `trap 'rc=$?; [ "$rc" -eq 0 ] || echo "${FAILED}$lvs_step" >&2' EXIT`,
    // Every program started costs tens of ms on a slow host: the time comes from the caller when it can, and the
    // log's size and mode are checked when the caller asks (once per host per provider run, see session.ts).
    now ? `lvs_now=${logTime(now)}` : "lvs_now=$(date -u +%Y-%m-%dT%H:%M:%SZ)",
    `[ -d ${quote(logDir)} ] || mkdir -p -m 0700 ${quote(logDir)}`,
    ...(checkLog
      ? [
          `if [ -f ${l} ] && [ "$(($(wc -c < ${l})))" -gt ${CHANGE_LOG_ROTATE_BYTES} ]; then mv -f ${l} ${quote(`${log}.1`)}; fi`,
          `(umask 077 && : >> ${l})`,
          `chmod 0600 ${l}`,
        ]
      : [`[ -f ${l} ] || (umask 077 && : >> ${l})`]),
    ...steps.flatMap((step, i) => [
      `lvs_step=${i + 1}`,
      ...auditLines(step).map((line) => `printf '%s %s\\n' "$lvs_now" ${quote(line)} >> ${l}`),
      stepRun(step),
    ]),
    "} </dev/null",
    "",
  ].join("\n");
}

/** The step an applyScript run failed at (0: the change log itself), and stderr without the script's own note. */
export function failedStep(stderr: string): { step: number | undefined; stderr: string } {
  const at = stderr.lastIndexOf(FAILED);
  if (at < 0) return { step: undefined, stderr };
  return { step: Number.parseInt(stderr.slice(at + FAILED.length), 10), stderr: stderr.slice(0, at) };
}
