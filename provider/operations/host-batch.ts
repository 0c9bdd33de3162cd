// Operations of one kind that arrive together on one host run as one batch: one lock, one read, one apply. Pulumi
// runs many resources at once and each would otherwise take the host lock and read the whole table on its own, so
// the work per resource grew with the table. While a batch waits for the lock, later arrivals join it; once it holds
// the lock, arrivals start the next one. Each item still succeeds or fails on its own.
import { ConnectionSpec, connectionKey } from "../remote";
import { HostSession, withHost } from "./session";

/** What a batch says of one of its items: done, failed with its own error, or to run again in the next batch. */
export type ItemOutcome = { done: true } | { error: Error } | { again: true };

export const DONE: ItemOutcome = { done: true };
export const AGAIN: ItemOutcome = { again: true };

/** Runs a batch on a host holding its lock; returns one outcome per item, in order. */
export type BatchRunner<T> = (session: HostSession, items: T[]) => Promise<ItemOutcome[]>;

interface Waiter<T> {
  item: T;
  resolve: () => void;
  reject: (error: Error) => void;
}

// A bound on the script and read of one batch; Pulumi's parallelism keeps batches far smaller in practice.
const MAX_ITEMS = 50;

/**
 * Returns `submit(host, item)`, which settles when the batch holding the item has run it. Callers must not hold the
 * host's lock themselves (the batch takes it).
 */
export function hostBatcher<T>(run: BatchRunner<T>): (host: ConnectionSpec, item: T) => Promise<void> {
  const gathering = new Map<string, Waiter<T>[]>();

  const enqueue = (host: ConnectionSpec, waiter: Waiter<T>): void => {
    const key = connectionKey(host);
    const open = gathering.get(key);
    if (open && open.length < MAX_ITEMS) {
      open.push(waiter);
      return;
    }
    const batch = [waiter];
    gathering.set(key, batch);
    const again: Waiter<T>[] = [];
    withHost(host, async (session) => {
      if (gathering.get(key) === batch) gathering.delete(key);
      const outcomes = await run(
        session,
        batch.map((w) => w.item),
      );
      batch.forEach((w, i) => {
        const outcome = outcomes[i];
        if ("again" in outcome) again.push(w);
        else if ("error" in outcome) w.reject(outcome.error);
        else w.resolve();
      });
    }).then(
      // Outside the lock's call chain: the next batch must queue for the lock, not run inside this one.
      () => again.forEach((w) => enqueue(host, w)),
      (error: Error) => batch.forEach((w) => w.reject(error)),
    );
  };

  return (host, item) => new Promise<void>((resolve, reject) => enqueue(host, { item, resolve, reject }));
}

/**
 * Which items run in this batch: the first of each key. Another resource of the same key (a replace creating before
 * it deletes) waits for the next batch, so no two plans are made from one reading of one entry.
 */
export function firstOfEachKey(keys: string[]): boolean[] {
  const seen = new Set<string>();
  return keys.map((key) => {
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Outcomes of items whose step groups ran in order (`groupOf[i]`: item i's group; undefined: it had none to run):
 * done before the failed group, its error for the failed one (for all when none ran), to run again after it.
 */
export function outcomesAfter(
  failure: { group: number | undefined; error: Error } | undefined,
  groupOf: (number | undefined)[],
): ItemOutcome[] {
  return groupOf.map((group) => {
    if (group === undefined || failure === undefined) return DONE;
    if (failure.group === undefined || group === failure.group) return { error: failure.error };
    return group < failure.group ? DONE : AGAIN;
  });
}
