// Operations of one kind that arrive together on one host run as one batch: one lock, one read, one apply. Pulumi
// runs many resources at once and each would otherwise take the host lock and read the whole table on its own, so
// the work per resource grew with the table. While a batch waits for the lock, later arrivals join it; once it holds
// the lock, arrivals start the next one. Each item still succeeds or fails on its own.
import { ConnectionSpec, sessionKey } from "../remote";
import { batchOutcomes, batchSteps, ItemOutcome, PlannedBatch } from "../plan/host-batch";
import { Step } from "../plan/step";
import { HostSession, withHost } from "./session";

/**
 * Runs a batch on a host holding its lock; returns one outcome per item, in order. `merge`: the items' steps may be
 * merged (applyBatch).
 */
export type BatchRunner<T> = (session: HostSession, items: T[], merge: boolean) => Promise<ItemOutcome[]>;

interface Waiter<T> {
  item: T;
  resolve: () => void;
  reject: (error: Error) => void;
  unmerged?: boolean;
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
    // A batch runs under its first item's session: only items of the same session may join it.
    const key = sessionKey(host);
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
        !batch.some((w) => w.unmerged),
      );
      batch.forEach((w, i) => {
        const outcome = outcomes[i];
        if ("again" in outcome) again.push({ ...w, unmerged: outcome.unmerged });
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
 * Runs the planned groups as one script after `shared` steps every item needs (with `merge`, merged: batch-script.ts),
 * stopping at the first failure; each item's outcome as batchOutcomes tells it.
 */
export async function applyBatch(
  session: HostSession,
  planned: PlannedBatch,
  merge: boolean,
  shared: Step[] = [],
): Promise<ItemOutcome[]> {
  const merged = batchSteps(planned, merge);
  const failure = await session.runScript([...shared, ...merged.map((m) => m.step)]);
  return batchOutcomes(planned, merged, shared.length, failure);
}
