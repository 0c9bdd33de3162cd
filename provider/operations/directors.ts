import { machineIdFact } from "../facts/machineId";
import { ConnectionSpec } from "../remote";
import { hostKey } from "../schemas/connection";
import { withHost } from "./session";

const sameAddress = (a: ConnectionSpec, b: ConnectionSpec) => hostKey(a) === hostKey(b);

function machineId(connection: ConnectionSpec): Promise<string | undefined> {
  return withHost(connection, (s) => s.read({ id: machineIdFact() })).then((facts) => facts.id);
}

/**
 * Whether two connections reach one machine: the same address, or the same machine id (an IP and a DNS name, another
 * address of the host). Decides every removal from a host that an update seems to drop.
 */
export async function sameMachine(a: ConnectionSpec, b: ConnectionSpec, identify = machineId): Promise<boolean> {
  if (sameAddress(a, b)) return true;
  const [idA, idB] = await Promise.all([identify(a), identify(b)]);
  return idA !== undefined && idA === idB;
}

/** Directors listed before an update and not after it, by machine: their entries must go. */
export async function droppedDirectors<T extends ConnectionSpec>(
  before: T[],
  after: T[],
  identify = machineId,
): Promise<T[]> {
  const candidates = before.filter((d) => !after.some((n) => sameAddress(n, d)));
  if (candidates.length === 0) return [];
  const kept = await Promise.all(after.map(identify));
  const ids = await Promise.all(candidates.map(identify));
  return candidates.filter((_d, i) => ids[i] === undefined || !kept.includes(ids[i]));
}

/**
 * Runs `each` on every director and waits for all of them before failing with the first error: an undo that follows
 * a failure must not race the directors still being written (it would read their tables half-way).
 */
export async function onEveryDirector<T>(directors: T[], each: (director: T) => Promise<void>): Promise<void> {
  const results = await Promise.allSettled(directors.map(each));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}
