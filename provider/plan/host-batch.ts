// A batch's items on one host (operations/host-batch.ts runs them): which run now, their steps as one script, and
// what a failure at one step of that script means for each item.
import { MergedStep, mergeGroups } from "./batch-script";
import { Step } from "./step";

/**
 * What a batch says of one of its items: done, failed with its own error, or to run again in the next batch
 * (`unmerged`: that batch runs each item's steps on their own, after a step merged for several items failed).
 */
export type ItemOutcome = { done: true } | { error: Error } | { again: true; unmerged?: boolean };

export const DONE: ItemOutcome = { done: true };
export const AGAIN: ItemOutcome = { again: true };
const AGAIN_UNMERGED: ItemOutcome = { again: true, unmerged: true };

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

/** The groups' steps in script order, each with the groups it works for: merged (batch-script.ts) with `merge`. */
export function batchSteps(planned: PlannedBatch, merge: boolean): MergedStep[] {
  return merge
    ? mergeGroups(planned.groups)
    : planned.groups.flatMap((steps, group) => steps.map((step) => ({ step, groups: [group] })));
}

/**
 * Each item's outcome once the script of `shared` steps (`shared` of them, which every item needs) and then `merged`
 * stopped at `failure` (its 1-based step; undefined step: before any ran) or ran whole (no failure): the items whose
 * steps all ran are done, an item whose own step failed gets its error (all do when a shared step failed), the items
 * that shared the failed step run again unmerged (which tells whose it is), the rest run again.
 */
export function batchOutcomes(
  planned: PlannedBatch,
  merged: MergedStep[],
  shared: number,
  failure: { step: number | undefined; error: Error } | undefined,
): ItemOutcome[] {
  const at = failure?.step === undefined ? -1 : failure.step - 1 - shared;
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
