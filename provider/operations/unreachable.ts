// Operating through an outage: a read (refresh) carries on from the hosts that answer. An unreachable host is told
// once per process in one line (who, what was tried, what to do), not once per resource with a stack trace.
import { HostUnreachableError, log } from "../remote";

/** The HostUnreachableError behind `error` (itself or a cause), if any. */
export function unreachableHost(error: unknown): HostUnreachableError | undefined {
  for (let e = error; e instanceof Error; e = e.cause) if (e instanceof HostUnreachableError) return e;
  return undefined;
}

const told = new Set<string>();

/** Warns, once per host per process, that `error`'s host did not answer and what the read did instead. */
export function warnUnreachable(error: HostUnreachableError, instead: string): void {
  if (told.has(error.endpoint)) return;
  told.add(error.endpoint);
  const cause = error.lastError instanceof Error ? error.lastError.message : String(error.lastError);
  log().warn(
    `host ${error.endpoint} unreachable (${error.attempts} SSH attempts, last: ${cause}): ${instead}; ` +
      "once it answers (network, sshd), refresh again",
  );
}

/**
 * `read` of every item; an item whose host is unreachable gives undefined (and a warning), as long as one answers.
 * Any other error, or no host answering, fails the read.
 */
export async function readReachable<T, R>(
  items: T[],
  read: (item: T) => Promise<R>,
  instead: string,
): Promise<(R | undefined)[]> {
  const settled = await Promise.allSettled(items.map(read));
  const failed = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected").map((s) => s.reason);
  const other = failed.find((reason) => unreachableHost(reason) === undefined);
  if (other !== undefined || failed.length === items.length) throw other ?? failed[0];
  for (const reason of failed) warnUnreachable(unreachableHost(reason)!, instead);
  return settled.map((s) => (s.status === "fulfilled" ? s.value : undefined));
}
