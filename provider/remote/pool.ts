// One SSH connection per (user@host:port via jump chain) per process, shared by every operation.
// State is module-level on purpose: Pulumi serializes provider functions by value, and closures
// would each get their own copy; a module loaded via require is shared through the module cache.
import pLimit from "p-limit";
import { Client } from "ssh2";
import { ChannelOpenError } from "./channel";
import { ConnectionSpec, connectionKey } from "./connection";
import { Dialed, dial } from "./dial";
import { log } from "./log";
import { remoteSettings } from "./settings";

interface Entry {
  key: string;
  ready: Promise<Dialed>;
  dialed?: Dialed;
  /** Operations currently using the connection; while > 0 the socket keeps Node alive. */
  active: number;
  idleTimer?: NodeJS.Timeout;
  /** Caps concurrent exec channels below the server's MaxSessions. */
  channels: pLimit.Limit;
}

const entries = new Map<string, Entry>();

export interface WithClientOptions {
  /** Count against the per-connection channel cap (default true). Long-lived lock channels opt out. */
  limit?: boolean;
  retryIfGone?: boolean;
}

/**
 * Run `fn` with the pooled client for `spec`, dialing if needed. With `retryIfGone`, a connection
 * found dead when `fn` opens its channel is dropped and `fn` retried once on a fresh one; only for
 * `fn`s that open a single channel first, so nothing has run yet when that fails.
 */
export async function withClient<T>(
  spec: ConnectionSpec,
  fn: (client: Client) => Promise<T>,
  opts: WithClientOptions = {},
): Promise<T> {
  try {
    return await useEntry(spec, fn, opts);
  } catch (err) {
    if (!opts.retryIfGone || !(err instanceof ChannelOpenError) || !isConnectionGone(err)) throw err;
    log().debug(`ssh: ${connectionKey(spec)} connection was gone (${err.message}); reconnecting`);
    drop(connectionKey(spec));
    return useEntry(spec, fn, opts);
  }
}

async function useEntry<T>(spec: ConnectionSpec, fn: (client: Client) => Promise<T>, opts: WithClientOptions) {
  const entry = entryFor(spec);
  acquire(entry);
  try {
    const { client } = await entry.ready;
    return await (opts.limit === false ? fn(client) : entry.channels(() => fn(client)));
  } finally {
    release(entry);
  }
}

/** Close every pooled connection (tests, provider shutdown). */
export function closeAll(): void {
  for (const key of [...entries.keys()]) drop(key);
}

/** Keys of the pooled connections, for diagnostics and tests. */
export function pooledConnections(): string[] {
  return [...entries.keys()];
}

function entryFor(spec: ConnectionSpec): Entry {
  const key = connectionKey(spec);
  const existing = entries.get(key);
  if (existing) return existing;
  const entry: Entry = {
    key,
    active: 0,
    channels: pLimit(remoteSettings().maxChannelsPerConnection),
    ready: dial(spec).then(
      (dialed) => {
        entry.dialed = dialed;
        // Reconnect on next use if the server or network drops us.
        dialed.client.on("close", () => {
          if (entries.get(key) === entry) forget(entry);
        });
        if (entry.active === 0) dialed.socket.unref();
        log().debug(`ssh: connected ${key}`);
        return dialed;
      },
      (err: unknown) => {
        if (entries.get(key) === entry) forget(entry);
        throw err;
      },
    ),
  };
  entry.ready.catch(() => {}); // callers observe the error; avoid an unhandled rejection when none wait
  entries.set(key, entry);
  return entry;
}

function acquire(entry: Entry): void {
  entry.active++;
  clearTimeout(entry.idleTimer);
  entry.idleTimer = undefined;
  entry.dialed?.socket.ref();
}

function release(entry: Entry): void {
  if (--entry.active > 0 || entries.get(entry.key) !== entry) return;
  // Idle: let Node exit if nothing else is pending, and close after a while to free the server.
  entry.dialed?.socket.unref();
  entry.idleTimer = setTimeout(() => drop(entry.key), remoteSettings().idleTimeoutMs);
  entry.idleTimer.unref();
}

function drop(key: string): void {
  const entry = entries.get(key);
  if (!entry) return;
  forget(entry);
  entry.ready.then((d) => d.close()).catch(() => {});
}

function forget(entry: Entry): void {
  clearTimeout(entry.idleTimer);
  entries.delete(entry.key);
}

function isConnectionGone(err: ChannelOpenError): boolean {
  const cause = (err.cause as Error | undefined)?.message ?? "";
  return /Not connected|No response from server|ECONNRESET|EPIPE/.test(cause);
}
