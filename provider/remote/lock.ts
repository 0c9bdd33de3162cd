// A per-host mutex held ON THE HOST, so operations from different processes (Pulumi runs
// resources in parallel, possibly in several provider processes) serialize too.
// The lock is a `flock` held by a shell at the end of a long-lived exec channel, which then runs the holder's
// commands (lock-shell.ts); closing our stdin ends the shell and the kernel releases the lock, also if we crash or
// the connection drops. A command past its timeout closes the shell: the lock goes once that command has ended
// (until then it may still be changing the host).
import { AsyncLocalStorage } from "async_hooks";
import pLimit from "p-limit";
import { Link, collect, openExec } from "./channel";
import { ConnectionSpec, connectionKey } from "./connection";
import { LockShell } from "./lock-shell";
import { log } from "./log";
import { withClient } from "./pool";
import { remoteSettings } from "./settings";
import { wrapCommand } from "./wrap";
import { quote } from "../plan/shell";

export const DEFAULT_LOCK_PATH = "/run/lvs-pulumi.lock";
export const DEFAULT_LOCK_TIMEOUT_SECONDS = 120;

export interface HostLockOptions {
  /** Lock file on the host. Default /run/lvs-pulumi.lock. */
  path?: string;
  /** Give up waiting for the lock after this many seconds. Default 120. */
  timeoutSeconds?: number;
}

// Module-level (see pool.ts). One waiter per host per process: queued callers wait here instead
// of each holding an SSH channel (MaxSessions) while blocked in flock.
const queues = new Map<string, pLimit.Limit>();
/** A lock held by this process; `lost` once the holder on the host is gone before we released it. */
interface HeldLock {
  lost?: Error;
  /** Runs the holder's commands on the host. */
  shell?: LockShell;
}

// Locks held by the current async call chain, so a nested withHostLock on the same host does not deadlock.
const held = new AsyncLocalStorage<ReadonlyMap<string, HeldLock>>();

/** Throws when a lock held by this call chain was lost: what would follow is no longer serialized. */
export function assertHostLocksHeld(): void {
  for (const lock of held.getStore()?.values() ?? []) if (lock.lost) throw lock.lost;
}

/** The shell of the host's lock when this async call chain holds it: commands run there (see exec.ts). */
export function heldShell(spec: ConnectionSpec): LockShell | undefined {
  return held.getStore()?.get(connectionKey(spec))?.shell;
}

/** This async call chain holds the host's lock (inside withHostLock for it). */
export function holdsHostLock(spec: ConnectionSpec): boolean {
  return held.getStore()?.has(connectionKey(spec)) ?? false;
}

/** Run `fn` while holding the host's lock. Re-entrant within one async call chain. */
export async function withHostLock<T>(
  spec: ConnectionSpec,
  fn: () => Promise<T>,
  opts: HostLockOptions = {},
): Promise<T> {
  const key = connectionKey(spec);
  const outer = held.getStore();
  if (outer?.has(key)) return fn();
  let queue = queues.get(key);
  if (!queue) queues.set(key, (queue = pLimit(1)));
  return queue(() =>
    withClient(
      spec,
      (link) => holdLock(link, spec, opts, (lock) => held.run(new Map([...(outer ?? []), [key, lock]]), fn)),
      { limit: false },
    ),
  );
}

async function holdLock<T>(
  link: Link,
  spec: ConnectionSpec,
  opts: HostLockOptions,
  fn: (lock: HeldLock) => Promise<T>,
): Promise<T> {
  const path = opts.path ?? DEFAULT_LOCK_PATH;
  const timeout = opts.timeoutSeconds ?? DEFAULT_LOCK_TIMEOUT_SECONDS;
  const script = `exec 9>${quote(path)} && flock -w ${timeout} 9 && echo LOCKED && exec sh`;
  // The channel counts as open on the connection until it closes, so the idle timer never closes
  // a connection under a held lock; if the connection dies, `finished` rejects at once.
  const channel = await openExec(link, wrapCommand(script, spec.sudo), remoteSettings().channelOpenTimeoutMs);
  const finished = collect(channel, link);
  finished.catch(() => {}); // observed below; a dropped connection must not become an unhandled rejection
  let closed = false;
  let released = false;
  channel.on("close", () => (closed = true));

  await new Promise<void>((resolve, reject) => {
    let seen = "";
    const onData = (d: Buffer) => {
      seen += d.toString("utf8");
      if (!seen.includes("LOCKED\n")) return;
      channel.removeListener("data", onData);
      resolve();
    };
    channel.on("data", onData);
    finished.then(
      (r) => reject(new Error(`cannot lock ${path} on ${connectionKey(spec)} (exit ${r.code}): ${r.stderr.trim()}`)),
      (err: Error) => reject(new Error(`cannot lock ${path} on ${connectionKey(spec)}: ${err.message}`)),
    );
  });
  log().debug(`ssh: locked ${path} on ${connectionKey(spec)}`);
  // A lost lock fails the body at once, and every remote command it still tries (see assertHostLocksHeld).
  const lock: HeldLock = { shell: new LockShell(channel, link) };
  let reportLoss: (error: Error) => void = () => {};
  const loss = new Promise<never>((_, reject) => (reportLoss = reject));
  loss.catch(() => {}); // observed by the race below
  channel.on("close", () => {
    if (released) return;
    lock.lost = new Error(
      `lost the host lock ${path} on ${connectionKey(spec)} while holding it (connection dropped, or the holder ` +
        `on the host was killed); the operation stopped and may be partly applied`,
    );
    log().warn(lock.lost.message);
    reportLoss(lock.lost);
  });

  try {
    const result = await Promise.race([fn(lock), loss]);
    if (lock.lost) throw lock.lost;
    return result;
  } finally {
    released = true;
    channel.end(); // EOF on stdin: the shell exits, the lock is released
    await settleWithin(finished, 5000);
    if (!closed) channel.close(); // the shell did not exit: force the channel shut
    log().debug(`ssh: unlocked ${path} on ${connectionKey(spec)}`);
  }
}

async function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise.catch(() => {}), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
