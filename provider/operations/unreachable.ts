// Operating through an outage: a read (refresh) carries on from the hosts that answer. An unreachable host is told
// once per process in one line (who, what was tried, what to do), not once per resource with a stack trace.
import { ConnectionSpec, endpointOf, HostUnreachableError, log } from "../remote";
import { hostKey } from "../schemas/connection";

/**
 * The documented input for working through an outage: hosts the operator knows are down, comma-separated as written
 * in the connections (`LVS_PULUMI_HOSTS_DOWN=198.51.100.11 pulumi up`). No SSH is tried to them: a change goes to the
 * directors that are up (the others are recorded as missing it, and the next `up` without the variable converges
 * them), and an HA pair keeps its VIPs on the live member until then (see kinds/ha-pair/apply.ts).
 */
export const HOSTS_DOWN_VARIABLE = "LVS_PULUMI_HOSTS_DOWN";

export function knownDown(connection: ConnectionSpec): boolean {
  const listed = (process.env[HOSTS_DOWN_VARIABLE] ?? "").split(",").map((host) => host.trim());
  return listed.some((host) => host !== "" && hostKey({ host }) === hostKey({ host: connection.host }));
}

/** The error a host listed as down gives at once, as an unreachable one would after its dial budget. */
export function knownDownError(connection: ConnectionSpec): HostUnreachableError {
  return new HostUnreachableError(endpointOf(connection), 0, new Error(`listed in ${HOSTS_DOWN_VARIABLE}`));
}

/** The HostUnreachableError behind `error` (itself or a cause), if any. */
export function unreachableHost(error: unknown): HostUnreachableError | undefined {
  for (let e = error; e instanceof Error; e = e.cause) if (e instanceof HostUnreachableError) return e;
  return undefined;
}

const unreachable = new Map<string, HostUnreachableError>();

/**
 * A host whose dial budget ran out once is not dialled again by this process (one `pulumi up` or `refresh`): every
 * other resource on it would spend the same budget (by default 10 attempts of up to 15 s) to learn the same.
 */
export function rememberUnreachable(connection: ConnectionSpec, error: unknown): void {
  const found = unreachableHost(error);
  if (found) unreachable.set(endpointOf(connection), found);
}

export function foundUnreachable(connection: ConnectionSpec): HostUnreachableError | undefined {
  return unreachable.get(endpointOf(connection));
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
