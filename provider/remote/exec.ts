// Running commands on a host: `run` reports, `exec` throws on failure. Output is returned raw;
// anything that becomes an error message or log line is masked.
import { RunResult, runOnClient } from "./channel";
import { ConnectionSpec, connectionKey, connectionSecrets } from "./connection";
import { RemoteCommandError } from "./errors";
import { log } from "./log";
import { withClient } from "./pool";
import { maskSecrets } from "./secrets";
import { wrapCommand } from "./wrap";

export type { RunResult } from "./channel";

export interface RunOptions {
  /** Sent on the command's stdin (then EOF); keeps content such as file bodies off the command line. */
  stdin?: string | Buffer;
  /** Extra values to mask in errors and logs for this call. */
  secrets?: readonly string[];
}

/** Run `command` via `sh -c` (and `sudo -n` if the connection says so); never throws on non-zero exit. */
export async function run(spec: ConnectionSpec, command: string, opts: RunOptions = {}): Promise<RunResult> {
  const secrets = [...connectionSecrets(spec), ...(opts.secrets ?? [])];
  log().debug(`ssh: ${connectionKey(spec)}: ${maskSecrets(command, secrets)}`);
  const wrapped = wrapCommand(command, spec.sudo);
  return withClient(spec, (client) => runOnClient(client, wrapped, opts.stdin), { retryIfGone: true });
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
