import { machineIdFact } from "../facts/machine-id";
import { ConnectionSpec } from "../remote";
import { hostKey } from "../schemas/connection";
import { withHost } from "./session";
import { HOSTS_DOWN_VARIABLE, knownDown, knownDownError, warnUnreachable } from "./unreachable";

const sameSshEndpoint = (a: ConnectionSpec, b: ConnectionSpec) => hostKey(a) === hostKey(b);

function machineId(connection: ConnectionSpec): Promise<string | undefined> {
  return withHost(connection, (s) => s.read({ id: machineIdFact() })).then((facts) => facts.id);
}

/**
 * Whether two connections reach one machine: the same address, or the same machine id (an IP and a DNS name, another
 * address of the host). Decides every removal from a host that an update seems to drop.
 */
export async function sameMachine(a: ConnectionSpec, b: ConnectionSpec, identify = machineId): Promise<boolean> {
  if (sameSshEndpoint(a, b)) return true;
  const [idA, idB] = await Promise.all([identify(a), identify(b)]);
  return idA !== undefined && idA === idB;
}

/**
 * Directors listed before an update and not after it, by machine: their entries must go. Called before the update
 * writes anything: a kept director that cannot be identified (listed down) fails it with nothing changed, since a
 * "dropped" one could be that machine under another name, and removing its entries would take the service down.
 */
export async function droppedDirectors<T extends ConnectionSpec>(
  before: T[],
  after: T[],
  identify = machineId,
): Promise<T[]> {
  const candidates = before.filter((d) => !after.some((n) => sameSshEndpoint(n, d)));
  if (candidates.length === 0) return [];
  const down = after.find(knownDown);
  if (down) {
    throw new Error(
      `the directors ${candidates.map((d) => d.host).join(", ")} leave this resource while ${down.host}, listed in ` +
        `${HOSTS_DOWN_VARIABLE}, cannot be told apart from them by machine id: change the directors once ` +
        `${down.host} is back; nothing was changed`,
    );
  }
  const kept = await Promise.all(after.map(identify));
  const ids = await Promise.all(candidates.map(identify));
  return candidates.filter((_d, i) => ids[i] === undefined || !kept.includes(ids[i]));
}

/**
 * Runs `each` on every director and waits for all of them before failing with the first error: an undo that follows
 * a failure must not race the directors still being written (it would read their tables half-way). With
 * `skipDown` (a change, which the state can record as missing there), directors the operator listed as down are
 * skipped and returned, as long as one is up; a removal fails on them (it is retried once they are back).
 */
export async function onEveryDirector<T extends ConnectionSpec>(
  directors: T[],
  each: (director: T) => Promise<void>,
  skipDown = false,
): Promise<T[]> {
  const down = skipDown ? directors.filter(knownDown) : [];
  if (down.length > 0 && down.length === directors.length) throw knownDownError(down[0]);
  for (const director of down) {
    warnUnreachable(knownDownError(director), "changed on the other directors only; the next up converges it");
  }
  const results = await Promise.allSettled(directors.filter((d) => !down.includes(d)).map(each));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return down;
}
