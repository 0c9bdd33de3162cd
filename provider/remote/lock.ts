// A per-host mutex held ON THE HOST, so operations from different processes (Pulumi runs
// resources in parallel, possibly in several provider processes) serialize too.
// The lock is a `flock` held by a shell at the end of a long-lived exec channel, which runs the holder's commands
// (lock-shell.ts) and stays open for the next hold; closing fd 9 releases it, and so does the end of the shell (also
// if we crash or the connection drops). A command past its timeout closes the shell: the lock goes once that command
// has ended (until then it may still be changing the host).
import { AsyncLocalStorage } from "async_hooks";
import pLimit from "p-limit";
import { Link, openExec } from "./channel";
import { ConnectionSpec, connectionKey } from "./connection";
import { LockShell } from "./lock-shell";
import { log } from "./log";
import { withClient } from "./pool";
import { sessionKey } from "./session-key";
import { remoteSettings } from "./settings";
import { wrapCommand } from "./wrap";
import { quote } from "../model/shell";

export const DEFAULT_LOCK_PATH = "/run/lvs-pulumi.lock";
export const DEFAULT_LOCK_TIMEOUT_SECONDS = 120;

export interface HostLockOptions {
  /** Lock file on the host. Default /run/lvs-pulumi.lock. */
  path?: string;
  /** Give up waiting for the lock after this many seconds. Default 120. */
  timeoutSeconds?: number;
}

// Module-level (see pool.ts). One waiter per host per process (by connectionKey: the lock is the host's, whatever
// the session): queued callers wait here instead of each holding an SSH channel (MaxSessions) while blocked in flock.
const queues = new Map<string, pLimit.Limit>();
/** A lock held by this process; `lost` once the holder on the host is gone before we released it. */
interface HeldLock {
  lost?: Error;
  /** Runs the holder's commands on the host. */
  shell?: LockShell;
  /** sessionKey the shell was opened under: only commands of that session run in it. */
  session?: string;
}

// Locks held by the current async call chain, so a nested withHostLock on the same host, whatever its session, does
// not deadlock against our own flock.
const held = new AsyncLocalStorage<ReadonlyMap<string, HeldLock>>();

/** Throws when a lock held by this call chain was lost: what would follow is no longer serialized. */
export function assertHostLocksHeld(): void {
  for (const lock of held.getStore()?.values() ?? []) if (lock.lost) throw lock.lost;
}

/**
 * The shell of the host's lock when this async call chain holds it under `spec`'s session: commands run there (see
 * exec.ts). Under another session (other trust settings, credentials or sudo) they run over their own connection.
 */
export function heldShell(spec: ConnectionSpec): LockShell | undefined {
  const lock = held.getStore()?.get(connectionKey(spec));
  return lock?.session === sessionKey(spec) ? lock.shell : undefined;
}

/** This async call chain holds the host's lock (inside withHostLock for it). */
export function holdsHostLock(spec: ConnectionSpec): boolean {
  return held.getStore()?.has(connectionKey(spec)) ?? false;
}

/** Run `fn` while holding the host's lock. Re-entrant within one async call chain, also under another session. */
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

// The shell of each session (sessionKey), kept open between lock holds (remoteSettings().keepShellMs after the last):
// a hold then costs one `flock` in it instead of an SSH channel, a login shell and sudo. Between holds it has no fd 9:
// no lock.
const keptShells = new Map<string, { shell: LockShell; idle?: NodeJS.Timeout }>();

async function hostShell(link: Link, spec: ConnectionSpec): Promise<LockShell> {
  const key = sessionKey(spec);
  const kept = keptShells.get(key);
  if (kept?.shell.usable) {
    clearTimeout(kept.idle);
    return kept.shell;
  }
  const channel = await openExec(link, wrapCommand("exec sh", spec.sudo), remoteSettings().channelOpenTimeoutMs);
  const shell = new LockShell(channel, link);
  const entry = { shell };
  keptShells.set(key, entry);
  channel.on("close", () => {
    if (keptShells.get(key) === entry) keptShells.delete(key);
  });
  return shell;
}

/** Ends every kept shell now (tests, provider shutdown): the next hold on any host opens a fresh one. */
export function closeKeptShells(): void {
  for (const [key, { shell, idle }] of keptShells) {
    clearTimeout(idle);
    keptShells.delete(key);
    shell.close();
  }
}

/** Keeps the session's shell for the next hold, and ends it once none came for a while. */
function keepShell(spec: ConnectionSpec, shell: LockShell): void {
  const kept = keptShells.get(sessionKey(spec));
  if (kept?.shell !== shell || !shell.usable) return shell.close();
  kept.idle = setTimeout(() => shell.close(), remoteSettings().keepShellMs);
  kept.idle.unref();
}

async function holdLock<T>(
  link: Link,
  spec: ConnectionSpec,
  opts: HostLockOptions,
  fn: (lock: HeldLock) => Promise<T>,
): Promise<T> {
  const path = opts.path ?? DEFAULT_LOCK_PATH;
  const timeout = opts.timeoutSeconds ?? DEFAULT_LOCK_TIMEOUT_SECONDS;
  const shell = await hostShell(link, spec);
  let stopWatching = () => {};
  const ended = new Promise<Error>((resolve) => (stopWatching = shell.onEnd(resolve)));
  const locked = await shell
    .runHere(`exec 9>${quote(path)} && flock -w ${timeout} 9`, {
      timeoutMs: (timeout + 30) * 1000,
      display: `flock ${path}`,
    })
    .catch((err: Error) => ({ code: undefined, stderr: err.message }));
  if (locked.code !== 0) {
    stopWatching();
    keepShell(spec, shell);
    const status = locked.code === undefined ? "" : ` (exit ${locked.code})`;
    throw new Error(`cannot lock ${path} on ${connectionKey(spec)}${status}: ${locked.stderr.trim()}`);
  }
  log().debug(`ssh: locked ${path} on ${connectionKey(spec)}`);
  // A lost lock fails the body at once, and every remote command it still tries (see assertHostLocksHeld).
  const lock: HeldLock = { shell, session: sessionKey(spec) };
  let released = false;
  const loss = ended.then((): never => {
    if (released) return undefined as never;
    lock.lost = new Error(
      `lost the host lock ${path} on ${connectionKey(spec)} while holding it (connection dropped, or the holder ` +
        `on the host was killed); the operation stopped and may be partly applied`,
    );
    log().warn(lock.lost.message);
    throw lock.lost;
  });
  loss.catch(() => {}); // observed by the race below

  try {
    const result = await Promise.race([fn(lock), loss]);
    if (lock.lost) throw lock.lost;
    return result;
  } finally {
    released = true;
    stopWatching();
    // Closing fd 9 releases the lock; a shell that cannot run it any more is gone, and its lock with it.
    const unlocked = shell.usable
      ? await shell.runHere("exec 9>&-", { timeoutMs: 30_000, display: "unlock" }).then(
          (r) => r.code === 0,
          () => false,
        )
      : false;
    if (unlocked) keepShell(spec, shell);
    else shell.close();
    log().debug(`ssh: unlocked ${path} on ${connectionKey(spec)}`);
  }
}
