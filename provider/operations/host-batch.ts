// Operations of one kind that arrive together on one host run as one batch: one lock, one read, one apply. Pulumi
// runs many resources at once and each would otherwise take the host lock and read the whole table on its own, so
// the work per resource grew with the table. While a batch waits for the lock, later arrivals join it; once it holds
// the lock, arrivals start the next one. Each item still succeeds or fails on its own.
import { ConnectionSpec, sessionKey } from "../remote";
import { mergeGroups } from "../plan/batch-script";
import { Step } from "../plan/step";
import { HostSession, withHost } from "./session";

/**
 * What a batch says of one of its items: done, failed with its own error, or to run again in the next batch
 * (`unmerged`: that batch runs each item's steps on their own, after a step merged for several items failed).
 */
export type ItemOutcome = { done: true } | { error: Error } | { again: true; unmerged?: boolean };

export const DONE: ItemOutcome = { done: true };
export const AGAIN: ItemOutcome = { again: true };
const AGAIN_UNMERGED: ItemOutcome = { again: true, unmerged: true };

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

/** A batch's items planned: one group of steps per item that runs now, and the outcome of those that do not. */
export interface PlannedBatch {
  groups: Step[][];
  /** Item i's group; undefined for an item that does not run now (its outcome is in `settled`). */
  groupOf: (number | undefined)[];
  settled: (ItemOutcome | undefined)[];
}

/**
 * Which items run in this batch: the first of each key. Another item of the same key (a replace creating before it
 * deletes, a create and a delete of one claim) waits for the next batch, so no two plans are made from one reading
 * of one entry, and their order holds.
 */
export function firstOfEachKey(keys: string[]): boolean[] {
  const seen = new Set<string>();
  return keys.map((key) => {
    const first = !seen.has(key);
    seen.add(key);
    return first;
  });
}

/** Plans each item that runs in this batch (firstOfEachKey). An item whose `plan` throws (refused) fails alone. */
export function planBatch<E extends { key: string }>(entries: E[], plan: (entry: E) => Step[]): PlannedBatch {
  const planned: PlannedBatch = { groups: [], groupOf: [], settled: [] };
  const first = firstOfEachKey(entries.map((entry) => entry.key));
  entries.forEach((entry, i) => {
    let outcome: ItemOutcome | undefined = first[i] ? undefined : AGAIN;
    let group: number | undefined;
    if (first[i]) {
      try {
        group = planned.groups.push(plan(entry)) - 1;
      } catch (error) {
        outcome = { error: error as Error };
      }
    }
    planned.groupOf.push(group);
    planned.settled.push(outcome);
  });
  return planned;
}

/**
 * Runs the planned groups as one script after `shared` steps every item needs (with `merge`, merged: batch-script.ts),
 * stopping at the first failure: the items whose steps all ran are done, an item whose own step failed gets its
 * error (all do when a shared step failed), the items that shared the failed step run again unmerged (which tells
 * whose it is), the rest run again.
 */
export async function applyBatch(
  session: HostSession,
  planned: PlannedBatch,
  merge: boolean,
  shared: Step[] = [],
): Promise<ItemOutcome[]> {
  const merged = merge
    ? mergeGroups(planned.groups)
    : planned.groups.flatMap((steps, group) => steps.map((step) => ({ step, groups: [group] })));
  const failure = await session.runScript([...shared, ...merged.map((m) => m.step)]);
  const at = failure?.step === undefined ? -1 : failure.step - 1 - shared.length;
  return planned.groupOf.map((group, i) => {
    const settled = planned.settled[i];
    if (settled) return settled;
    if (failure === undefined || group === undefined) return DONE;
    if (at < 0) return { error: failure.error };
    const { groups } = merged[at];
    if (groups.includes(group)) return groups.length === 1 ? { error: failure.error } : AGAIN_UNMERGED;
    const ranAll = merged.every((m, step) => step < at || !m.groups.includes(group));
    return ranAll ? DONE : AGAIN;
  });
}
