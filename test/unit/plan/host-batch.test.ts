import { AGAIN, batchOutcomes, batchSteps, DONE, firstOfEachKey, planBatch } from "../../../provider/plan/host-batch";
import { command } from "../../../provider/model/shell";
import { Step, stepAudit, stepRun } from "../../../provider/plan/step";

const add = (vip: string): Step => ({ ipvsadm: ["-A", "-t", `${vip}:80`, "-s", "wrr"] });
const arping = (vip: string) => command("arping", "-q", "-U", "-c", "2", "-I", "eth0", vip);
const entries = ["203.0.113.151", "203.0.113.152", "203.0.113.153"].map((vip) => ({ key: `tcp:${vip}:80`, vip }));
const failure = (step: number | undefined) => ({ step, error: new Error(`failed at ${step}`) });

test("the first item of each key runs now; a later one of the same key waits for the next batch", () => {
  expect(firstOfEachKey(["a", "b", "a", "c", "b"])).toEqual([true, true, false, true, false]);
  const planned = planBatch([entries[0], entries[1], entries[0]], (e) => [add(e.vip)]);
  expect(planned.groups).toEqual([[add("203.0.113.151")], [add("203.0.113.152")]]);
  expect(planned.groupOf).toEqual([0, 1, undefined]);
  expect(planned.settled).toEqual([undefined, undefined, AGAIN]);
});

test("an item whose plan is refused fails alone with its error, without a group", () => {
  const refused = new Error("already exists and was not created by lvs-pulumi");
  const planned = planBatch(entries, (e) => {
    if (e === entries[1]) throw refused;
    return [add(e.vip)];
  });
  expect(planned.groupOf).toEqual([0, undefined, 1]);
  expect(planned.settled).toEqual([undefined, { error: refused }, undefined]);
});

test("merged, the items' IPVS commands go in one ipvsadm -R for all of them; unmerged, each step stays its own", () => {
  const planned = planBatch(entries, (e) => [add(e.vip), arping(e.vip)]);
  const merged = batchSteps(planned, true);
  expect(merged.map((m) => m.groups)).toEqual([[0, 1, 2], [0], [1], [2]]);
  expect(stepAudit(merged[0].step)).toBe(entries.map((e) => stepRun(add(e.vip))).join("; "));
  const unmerged = batchSteps(planned, false);
  expect(unmerged.map((m) => [m.step, m.groups])).toEqual(
    entries.flatMap((e, g) => [
      [add(e.vip), [g]],
      [arping(e.vip), [g]],
    ]),
  );
});

describe("what a failure at one step of the script means for each item", () => {
  const planned = planBatch([...entries, entries[0]], (e) => [add(e.vip), arping(e.vip)]);
  const merged = batchSteps(planned, true);

  test("the script ran whole: every item that ran is done; one that waits stays waiting", () => {
    expect(batchOutcomes(planned, merged, 0, undefined)).toEqual([DONE, DONE, DONE, AGAIN]);
  });

  test("a step shared by several items failed: they run again unmerged, to tell whose it is", () => {
    expect(batchOutcomes(planned, merged, 0, failure(1))).toEqual([
      { again: true, unmerged: true },
      { again: true, unmerged: true },
      { again: true, unmerged: true },
      AGAIN,
    ]);
  });

  test("an item's own step failed: it gets the error, those whose steps all ran before it are done, the rest wait", () => {
    const error = failure(3);
    expect(batchOutcomes(planned, merged, 0, error)).toEqual([DONE, { error: error.error }, AGAIN, AGAIN]);
  });

  test("steps every item shares come first: their failure fails them all; past them, the items' steps count", () => {
    const shared = failure(2);
    expect(batchOutcomes(planned, merged, 2, shared)).toEqual([
      { error: shared.error },
      { error: shared.error },
      { error: shared.error },
      AGAIN,
    ]);
    expect(batchOutcomes(planned, merged, 2, failure(2 + 4))[2]).toEqual({ error: expect.any(Error) });
    // No step named (the change log could not be written: runScript reports step 0 as none): nothing is known to have run.
    const before = failure(undefined);
    expect(batchOutcomes(planned, merged, 2, before)).toEqual([
      { error: before.error },
      { error: before.error },
      { error: before.error },
      AGAIN,
    ]);
  });
});
