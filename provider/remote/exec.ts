// Running commands on a host: `run` reports, `exec` throws on failure. Output is returned raw;
// anything that becomes an error message or log line is masked.
import { RunResult, runOnLink } from "./channel";
import { ConnectionSpec, connectionKey, connectionSecrets } from "./connection";
import { RemoteCommandError } from "./errors";
import { assertHostLocksHeld, heldShell } from "./lock";
import { LockShell } from "./lock-shell";
import { log } from "./log";
import { withClient } from "./pool";
import { maskSecrets } from "./secrets";
import { remoteSettings } from "./settings";
import { wrapCommand } from "./wrap";

export type { RunResult } from "./channel";

export interface RunOptions {
  /** Sent on the command's stdin (then EOF); keeps content such as file bodies off the command line. */
  stdin?: string | Buffer;
  /** Extra values to mask in errors and logs for this call. */
  secrets?: readonly string[];
  /** Give up on the command after this many ms (CommandTimeoutError); default remoteSettings().commandTimeoutMs, 0: no limit. */
  timeoutMs?: number;
}

/**
 * Run `command` via `sh -c` (and `sudo -n` if the connection says so), in the shell of the host's lock when the
 * caller holds it; never throws on non-zero exit.
 * Throws ConnectionLostError if the connection dies while it runs, CommandTimeoutError past the timeout, and does
 * not run at all once a host lock held by the caller was lost.
 */
export async function run(spec: ConnectionSpec, command: string, opts: RunOptions = {}): Promise<RunResult> {
  assertHostLocksHeld();
  const secrets = [...connectionSecrets(spec), ...(opts.secrets ?? [])];
  const display = maskSecrets(command, secrets);
  log().debug(`ssh: ${connectionKey(spec)}: ${display}`);
  const { channelOpenTimeoutMs, commandTimeoutMs } = remoteSettings();
  const timeoutMs = opts.timeoutMs ?? commandTimeoutMs;
  const shell = heldShell(spec);
  if (shell && LockShell.carries(opts.stdin)) return shell.run(command, opts.stdin, { timeoutMs, display });
  const wrapped = wrapCommand(command, spec.sudo);
  return withClient(spec, (link) =>
    runOnLink(link, wrapped, opts.stdin, {
      openTimeoutMs: channelOpenTimeoutMs,
      timeoutMs,
      display,
    }),
  );
}

/** Like `run`, but a non-zero exit throws RemoteCommandError (with secrets masked). */
export async function exec(spec: ConnectionSpec, command: string, opts: RunOptions = {}): Promise<RunResult> {
  const result = await run(spec, command, opts);
  if (result.code !== 0) throw commandError(spec, command, result, opts.secrets);
  return result;
}

export function commandError(
  spec: ConnectionSpec,
  command: string,
  result: RunResult,
  extraSecrets: readonly string[] = [],
): RemoteCommandError {
  const secrets = [...connectionSecrets(spec), ...extraSecrets];
  const mask = (text: string) => maskSecrets(text, secrets);
  return new RemoteCommandError(
    connectionKey(spec),
    mask(command),
    result.code,
    mask(result.stdout),
    mask(result.stderr),
    result.signal,
  );
}
