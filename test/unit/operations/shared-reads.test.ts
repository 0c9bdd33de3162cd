// SharedReads' rules, with reads the test settles by hand: callers share a read only if it started after they asked.
import { SharedReads } from "../../../provider/operations/shared-reads";

/** A read the test resolves or rejects, numbered in the order reads started. */
function manualReads() {
  const started: { resolve: (value: string) => void; reject: (error: Error) => void }[] = [];
  const readOnce = () =>
    new Promise<string>((resolve, reject) => {
      const n = started.length + 1;
      started.push({ resolve: (v) => resolve(`${v}#${n}`), reject });
    });
  return { started, readOnce };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

test("callers that ask while a read runs wait together for the next read, which starts when it ends", async () => {
  const shared = new SharedReads<string>();
  const { started, readOnce } = manualReads();
  const first = shared.read("dir1", readOnce);
  const later = Array.from({ length: 5 }, () => shared.read("dir1", readOnce));
  expect(started).toHaveLength(1);
  started[0].resolve("table");
  await flush();
  expect(started).toHaveLength(2);
  started[1].resolve("table");
  expect(await first).toBe("table#1");
  expect(await Promise.all(later)).toEqual(Array(5).fill("table#2"));
});

test("a caller after a read ended gets a new read, never the old answer", async () => {
  const shared = new SharedReads<string>();
  const { started, readOnce } = manualReads();
  const first = shared.read("dir1", readOnce);
  started[0].resolve("table");
  expect(await first).toBe("table#1");
  const second = shared.read("dir1", readOnce);
  expect(started).toHaveLength(2);
  started[1].resolve("table");
  expect(await second).toBe("table#2");
});

test("a failed read fails only its own callers: the callers waiting for the next read still get one", async () => {
  const shared = new SharedReads<string>();
  const { started, readOnce } = manualReads();
  const first = shared.read("dir1", readOnce);
  const waiting = shared.read("dir1", readOnce);
  started[0].reject(new Error("host dir1: connection lost"));
  await expect(first).rejects.toThrow("connection lost");
  await flush();
  started[1].resolve("table");
  expect(await waiting).toBe("table#2");
});

test("hosts do not share: a read of one host never waits for another's", async () => {
  const shared = new SharedReads<string>();
  const { started, readOnce } = manualReads();
  void shared.read("dir1", readOnce);
  const other = shared.read("dir2", readOnce);
  expect(started).toHaveLength(2);
  started[1].resolve("table");
  expect(await other).toBe("table#2");
});
