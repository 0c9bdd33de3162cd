// One SSH connection per session key (session-key.ts) per process, shared by every operation.
// State is module-level on purpose: Pulumi serializes provider functions by value, and closures
// would each get their own copy; a module loaded via require is shared through the module cache.
//
// Lifetimes: a pooled connection holds its jump connection, shared with the others behind the same jump host
// (dial.ts closes a jump connection when its last user is gone). It
// leaves the pool the moment it goes down (error, EOF, close, missed keepalives), which also fails
// every channel open and command in flight on it; it is closed by the idle timer only when no
// operation and no channel (lock channels included) uses it.
import pLimit from "p-limit";
import { ClientChannel } from "ssh2";
import { ChannelOpenError, Link } from "./channel";
import { ConnectionSpec, connectionKey } from "./connection";
import { Dialed, dial } from "./dial";
import { log } from "./log";
import { sessionKey } from "./session-key";
import { remoteSettings } from "./settings";

interface Entry {
  /** sessionKey: the pool's key. */
  key: string;
  /** connectionKey: what messages name. */
  name: string;
  ready: Promise<Dialed>;
  dialed?: Dialed;
  /** Operations currently using the connection; while > 0 the socket keeps Node alive. */
  active: number;
  /** Channels open on it (commands, lock channels); while > 0 the idle timer leaves it alone. */
  channels: number;
  idleTimer?: NodeJS.Timeout;
  /** Caps concurrent exec channels below the server's MaxSessions. */
  limit: pLimit.Limit;
  /** Taken out of the pool after a failed channel open; closed once its last user is done. */
  retired: boolean;
}

const entries = new Map<string, Entry>();

export interface WithClientOptions {
  /** Count against the per-connection channel cap (default true). Long-lived lock channels opt out. */
  limit?: boolean;
}

/**
 * Run `fn` with the pooled connection for `spec`, dialing if needed. If `fn` fails with
 * ChannelOpenError before any channel of its own was opened, the connection is taken out of the
 * pool, and if that error says the command certainly never ran, `fn` is retried once on a fresh
 * connection. A command that started (or may have) is never retried.
 */
export async function withClient<T>(
  spec: ConnectionSpec,
  fn: (link: Link) => Promise<T>,
  opts: WithClientOptions = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const entry = entryFor(spec);
    let opened = 0;
    acquire(entry);
    try {
      const dialed = await entry.ready;
      const link: Link = {
        client: dialed.client,
        name: dialed.name,
        downReason: () => dialed.downReason(),
        onDown: (listener) => dialed.onDown(listener),
        opened: (channel) => {
          opened++;
          trackChannel(entry, channel);
        },
      };
      return await (opts.limit === false ? fn(link) : entry.limit(() => fn(link)));
    } catch (err) {
      if (!(err instanceof ChannelOpenError) || opened > 0) throw err;
      retire(entry); // refused, wedged or dead: new operations get a fresh connection
      if (!err.retryable || attempt > 1) throw err;
      log().info(`ssh: ${entry.name}: ${err.message}; retrying on a fresh connection`);
    } finally {
      release(entry);
    }
  }
}

/** Close every pooled connection (tests, provider shutdown). */
export function closeAll(): void {
  for (const entry of [...entries.values()]) drop(entry);
}

/** connectionKeys of the pooled connections, for diagnostics and tests. */
export function pooledConnections(): string[] {
  return [...entries.values()].map((entry) => entry.name);
}

function entryFor(spec: ConnectionSpec): Entry {
  const key = sessionKey(spec);
  const existing = entries.get(key);
  if (existing) return existing;
  const name = connectionKey(spec);
  const entry: Entry = {
    key,
    name,
    active: 0,
    channels: 0,
    retired: false,
    limit: pLimit(remoteSettings().maxChannelsPerConnection),
    ready: dial(spec).then(
      (dialed) => {
        entry.dialed = dialed;
        // Gone means gone: the next operation dials afresh; in-flight ones fail (channel.ts).
        dialed.onDown((reason) => {
          log().debug(`ssh: ${name}: ${reason.reason}`);
          evict(entry);
        });
        dialed.keepProcessAlive(entry.active > 0);
        log().debug(`ssh: connected ${name}`);
        return dialed;
      },
      (err: unknown) => {
        evict(entry);
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
  entry.dialed?.keepProcessAlive(true);
}

function release(entry: Entry): void {
  entry.active--;
  maybeIdle(entry);
}

function trackChannel(entry: Entry, channel: ClientChannel): void {
  entry.channels++;
  clearTimeout(entry.idleTimer);
  entry.idleTimer = undefined;
  channel.once("close", () => {
    entry.channels--;
    maybeIdle(entry);
  });
}

function maybeIdle(entry: Entry): void {
  if (entry.active > 0 || entry.channels > 0) return;
  // Idle: unref the socket and close after a while to free the server. (ssh2's keepalive timer
  // is not unref'd, so an idle connection can delay Node's exit by up to idleTimeoutMs.)
  entry.dialed?.keepProcessAlive(false);
  if (entry.retired) return drop(entry);
  if (entries.get(entry.key) !== entry) return;
  clearTimeout(entry.idleTimer);
  entry.idleTimer = setTimeout(() => {
    if (entry.active === 0 && entry.channels === 0) drop(entry);
  }, remoteSettings().idleTimeoutMs);
  entry.idleTimer.unref();
}

// Out of the pool now; closed when its last operation and channel are done (maybe right away).
function retire(entry: Entry): void {
  evict(entry);
  entry.retired = true;
}

// Close the connection (and its jump connection, if no other connection uses it).
function drop(entry: Entry): void {
  evict(entry);
  entry.ready.then((d) => d.close()).catch(() => {});
}

function evict(entry: Entry): void {
  clearTimeout(entry.idleTimer);
  entry.idleTimer = undefined;
  if (entries.get(entry.key) === entry) entries.delete(entry.key);
}
