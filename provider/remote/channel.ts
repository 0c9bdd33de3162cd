// One exec channel on an open connection: start a command, feed stdin, collect output and exit status.
// Every wait here ends: when the connection goes down (keepalives, EOF, close), on a timeout, or normally.
import { Client, ClientChannel } from "ssh2";
import { CommandTimeoutError, ConnectionLostError } from "./errors";

export interface RunResult {
  stdout: string;
  stderr: string;
  /** Exit code, or null if the command was killed by a signal. */
  code: number | null;
  signal?: string;
}

/** A usable connection as the pool lends it out: the client, its health, and channel bookkeeping. */
export interface Link {
  readonly client: Client;
  /** Connection key, for messages. */
  readonly name: string;
  downReason(): ConnectionLostError | undefined;
  /** `listener` runs once when the connection goes down; returns an unsubscribe. */
  onDown(listener: (reason: ConnectionLostError) => void): () => void;
  /** Told about every channel opened, so the connection counts as busy until the channel closes. */
  opened?(channel: ClientChannel): void;
}

/**
 * The command could not be started. `retryable` when it certainly never ran (the session channel
 * was refused or never confirmed, so no exec request was sent): then a fresh connection may retry it.
 */
export class ChannelOpenError extends Error {
  constructor(
    cause: Error,
    readonly retryable: boolean,
  ) {
    super(`cannot open SSH channel: ${cause.message}`, { cause });
    this.name = "ChannelOpenError";
  }
}

/**
 * Open an exec channel for `command`, giving up after `timeoutMs` (0: no limit) or when the
 * connection goes down. ssh2 sends the exec request the moment the server confirms the session
 * channel; once it may have been sent, a failure is not retryable (the command may be running):
 * a lost connection then rejects with its ConnectionLostError, like a command in flight.
 */
export function openExec(link: Link, command: string, timeoutMs = 0): Promise<ClientChannel> {
  return new Promise((resolve, reject) => {
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    let unsubscribe = () => {};
    let unconfirmed = () => false;
    const settle = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      unsubscribe();
      fn();
    };
    const fail = (err: Error, retryable: boolean) => settle(() => reject(new ChannelOpenError(err, retryable)));
    const gone = link.downReason();
    if (gone) return fail(gone, true);
    try {
      unconfirmed = watchSessionOpen(link.client, () =>
        link.client.exec(command, (err, channel) => {
          // An SSH open failure carries a `reason`; anything else came after the exec request.
          if (err) return fail(err, "reason" in err);
          if (done) return channel.close(); // too late: nobody will read it
          recordExit(channel);
          settle(() => {
            link.opened?.(channel);
            resolve(channel);
          });
        }),
      );
    } catch (err) {
      return fail(err as Error, true); // ssh2 throws synchronously when the connection is gone
    }
    unsubscribe = link.onDown((reason) => (unconfirmed() ? fail(reason, true) : settle(() => reject(reason))));
    if (timeoutMs > 0)
      timer = setTimeout(() => {
        const safe = unconfirmed();
        const what = safe ? "opening a channel" : "waiting for the command to start (it may have started)";
        fail(new Error(`timed out after ${timeoutMs}ms ${what} on ${link.name}`), safe);
      }, timeoutMs);
  });
}

/** A channel's exit status as it arrived; absent until the command exited. */
const exits = new WeakMap<ClientChannel, { code: number | null; signal?: string }>();

// The exit status can come in the same read as the channel's confirmation: ssh2 then emits `exit` before the promise
// of openExec lets anyone attach a listener (seen ~1 in 20 runs through a jump host), so it is kept from the start.
function recordExit(channel: ClientChannel): void {
  channel.on("exit", (code: number | null, signal?: string) =>
    exits.set(channel, signal ? { code, signal } : { code }),
  );
}

// ssh2 has no public hook for "session channel confirmed" (after which the exec request is on
// the wire), but its channel table holds the pending-open callback until then. Returns a check
// for "still unconfirmed"; if ssh2's internals ever differ it answers false, which never retries.
function watchSessionOpen(client: Client, open: () => void): () => boolean {
  const table = (client as unknown as { _chanMgr?: { _channels?: Record<string, unknown> } })._chanMgr?._channels;
  const before = table && typeof table === "object" ? new Set(Object.values(table)) : undefined;
  open();
  if (!table || !before) return () => false;
  const mine = Object.entries(table).find(([, v]) => typeof v === "function" && !before.has(v));
  if (!mine) return () => false;
  const [id, pending] = mine;
  return () => table[id] === pending;
}

export interface CollectOptions {
  /** Reject with CommandTimeoutError (and kill the command) after this long; 0 or absent: no limit. */
  timeoutMs?: number;
  /** The command as it may appear in errors (already masked). */
  display?: string;
}

/**
 * Wait for a started channel to finish. Output is decoded once at the end so UTF-8 never splits.
 * Rejects with ConnectionLostError as soon as the connection goes down.
 */
export function collect(channel: ClientChannel, link: Link, opts: CollectOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    let unsubscribe = () => {};
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      unsubscribe();
      fn();
    };
    unsubscribe = link.onDown((reason) => finish(() => reject(reason)));
    const { timeoutMs = 0 } = opts;
    if (timeoutMs > 0)
      timer = setTimeout(
        () =>
          finish(() => {
            abandon(channel);
            reject(new CommandTimeoutError(link.name, opts.display ?? "(command)", timeoutMs));
          }),
        timeoutMs,
      );
    channel.on("data", (d: Buffer) => out.push(d));
    channel.stderr.on("data", (d: Buffer) => err.push(d));
    channel.on("error", (e: Error) => finish(() => reject(e)));
    channel.on("close", () =>
      finish(() => {
        const exit = exits.get(channel);
        if (!exit) {
          const reason = link.downReason();
          return reject(reason ?? new ConnectionLostError(link.name, "channel closed without an exit status"));
        }
        const result: RunResult = {
          stdout: Buffer.concat(out).toString("utf8"),
          stderr: Buffer.concat(err).toString("utf8"),
          code: exit.code,
        };
        if (exit.signal) result.signal = exit.signal;
        resolve(result);
      }),
    );
  });
}

/** Run an already-wrapped command; stdin is always ended so commands reading it never hang. */
export async function runOnLink(
  link: Link,
  command: string,
  stdin: string | Buffer | undefined,
  opts: CollectOptions & { openTimeoutMs?: number } = {},
): Promise<RunResult> {
  const channel = await openExec(link, command, opts.openTimeoutMs);
  const done = collect(channel, link, opts);
  channel.end(stdin);
  return done;
}

// Stop a command we no longer wait for: ask for a KILL (OpenSSH honours it except on root logins)
// and close the channel. ssh2's channel.signal() refuses once our stdin is ended (always, here), although the
// protocol allows it, so send the request through the channel's protocol object when it has one.
function abandon(channel: ClientChannel): void {
  const internals = channel as unknown as {
    outgoing?: { id?: number; state?: string };
    _client?: { _protocol?: { signal?: (id: number, name: string) => void } };
  };
  const { outgoing } = internals;
  const protocol = internals._client?._protocol;
  try {
    if (outgoing?.id !== undefined && (outgoing.state === "open" || outgoing.state === "eof") && protocol?.signal)
      protocol.signal(outgoing.id, "KILL");
    else channel.signal("KILL");
  } catch {
    // the channel or connection is already gone
  }
  channel.close();
}
