// Batches on a stand-in director (stand-in-director.ts): the lock and the reads are real SSH to it, change scripts are
// kept and never run; a chosen IPVS line fails the way ipvsadm does.
import { command } from "../../../provider/model/shell";
import { serviceCommand } from "../../../provider/model/ipvsadm";
import { IpvsService } from "../../../provider/model/ipvs";

const wrr = (vip: string): IpvsService => ({
  id: { protocol: "tcp", address: vip, port: 80 },
  scheduler: "wrr",
  flags: [],
  onePacket: false,
});
import { applyBatch, hostBatcher } from "../../../provider/operations/host-batch";
import { withHost } from "../../../provider/operations/session";
import { DONE, ItemOutcome, planBatch } from "../../../provider/plan/host-batch";
import { useStandInDirector } from "./stand-in-director";

const director = useStandInDirector();

/** A batcher whose runner answers each batch with `answer` (by call), recording what it was given. */
function recording(answer: (items: string[], call: number) => ItemOutcome[]) {
  const calls: { items: string[]; merge: boolean }[] = [];
  const submit = hostBatcher<string>(async (_session, items, merge) => {
    calls.push({ items, merge });
    return answer(items, calls.length - 1);
  });
  return { calls, submit: (item: string) => submit(director().connection, item) };
}

const failed = new Error("refused");
const settle = (promises: Promise<void>[]) =>
  Promise.allSettled(promises).then((all) => all.map((r) => (r.status === "fulfilled" ? "done" : String(r.reason))));

test("items arriving together run as one batch under one lock; each settles as its outcome says", async () => {
  const { calls, submit } = recording((items) => items.map((item) => (item === "b" ? { error: failed } : DONE)));
  expect(await settle(["a", "b", "c"].map(submit))).toEqual(["done", "Error: refused", "done"]);
  expect(calls).toEqual([{ items: ["a", "b", "c"], merge: true }]);
  expect(director().counted("-a")).toMatchObject({ channels: 1, locks: 1 });
});

test("items told to run again go in the next batch; after a merged step failed, that batch runs unmerged", async () => {
  const { calls, submit } = recording((items, call) =>
    call === 0 ? [DONE, { again: true, unmerged: true }, { again: true, unmerged: true }] : items.map(() => DONE),
  );
  expect(await settle(["a", "b", "c"].map(submit))).toEqual(["done", "done", "done"]);
  expect(calls).toEqual([
    { items: ["a", "b", "c"], merge: true },
    { items: ["b", "c"], merge: false },
  ]);
});

test("a batch holds at most 50 items: the 51st starts the next one", async () => {
  const { calls, submit } = recording((items) => items.map(() => DONE));
  await settle(Array.from({ length: 51 }, (_, i) => submit(`item-${i}`)));
  expect(calls.map((c) => c.items.length)).toEqual([50, 1]);
});

test("a batch that fails as a whole (its runner throws) fails each of its items with that error", async () => {
  const { submit } = recording(() => {
    throw new Error("host gone");
  });
  expect(await settle(["a", "b"].map(submit))).toEqual(["Error: host gone", "Error: host gone"]);
});

describe("applyBatch", () => {
  const vips = ["203.0.113.151", "203.0.113.152", "203.0.113.153"];
  const entries = vips.map((vip) => ({ key: `tcp:${vip}:80`, vip }));
  const planned = () => planBatch(entries, (e) => [serviceCommand("-A", wrr(e.vip))]);
  const run = (merge: boolean) => withHost(director().connection, (session) => applyBatch(session, planned(), merge));

  test("merged: one script, the items' IPVS commands in one ipvsadm -R; all done", async () => {
    expect(await run(true)).toEqual([DONE, DONE, DONE]);
    expect(director().restores()).toEqual([1]);
  });

  test("a failed line of the merged ipvsadm -R: every item in it runs again unmerged, which tells whose it is", async () => {
    director().reset("-t 203.0.113.152:80");
    const again = { again: true, unmerged: true };
    expect(await run(true)).toEqual([again, again, again]);
    const unmerged = await run(false);
    expect(unmerged[0]).toEqual(DONE);
    expect(unmerged[1]).toEqual({ error: expect.any(Error) });
    expect(String((unmerged[1] as { error: Error }).error)).toContain("Memory allocation problem");
    expect(unmerged[2]).toEqual({ again: true });
    expect(director().counted("-A").steps).toEqual([3, 3]);
    expect(director().restores()).toEqual([1, 0]);
  });

  test("steps every item needs run first; their failure fails every item", async () => {
    director().reset(undefined, { anyLine: "systemctl enable" });
    const shared = [command("systemctl", "enable", "--quiet", "lvs-pulumi-ipvs.service")];
    const outcomes = await withHost(director().connection, (session) => applyBatch(session, planned(), true, shared));
    expect(outcomes.map((o) => ("error" in o ? String(o.error) : o))).toEqual(
      Array(3).fill(expect.stringContaining("stand-in: failed at systemctl enable")),
    );
  });
});
