// One exec channel on an open connection: start a command, feed stdin, collect output and exit status.
import { Client, ClientChannel } from "ssh2";

export interface RunResult {
  stdout: string;
  stderr: string;
  /** Exit code, or null if the command was killed by a signal. */
  code: number | null;
  signal?: string;
}

/** The channel could not be opened, so the command never started: safe to retry on a fresh connection. */
export class ChannelOpenError extends Error {
  constructor(cause: Error) {
    super(`cannot open SSH channel: ${cause.message}`, { cause });
    this.name = "ChannelOpenError";
  }
}

export function openExec(client: Client, command: string): Promise<ClientChannel> {
  return new Promise((resolve, reject) => {
    try {
      client.exec(command, (err, channel) => (err ? reject(new ChannelOpenError(err)) : resolve(channel)));
    } catch (err) {
      reject(new ChannelOpenError(err as Error)); // ssh2 throws synchronously when the connection is gone
    }
  });
}

/** Wait for a started channel to finish. Output is decoded once at the end so UTF-8 never splits. */
export function collect(channel: ClientChannel): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let code: number | null = null;
    let signal: string | undefined;
    let exited = false;
    channel.on("data", (d: Buffer) => out.push(d));
    channel.stderr.on("data", (d: Buffer) => err.push(d));
    channel.on("exit", (c: number | null, s?: string) => {
      exited = true;
      code = c;
      signal = s ?? undefined;
    });
    channel.on("error", reject);
    channel.on("close", () => {
      if (!exited) return reject(new Error("SSH channel closed without an exit status (connection lost?)"));
      const result: RunResult = {
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        code,
      };
      if (signal) result.signal = signal;
      resolve(result);
    });
  });
}

/** Run an already-wrapped command; stdin is always ended so commands reading it never hang. */
export async function runOnClient(client: Client, command: string, stdin?: string | Buffer): Promise<RunResult> {
  const channel = await openExec(client, command);
  const done = collect(channel);
  channel.end(stdin);
  return done;
}
