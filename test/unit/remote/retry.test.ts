// Bounded retries with exponential backoff (retry.ts).
import { RetriesExhausted, retry } from "../../../provider/remote/retry";

describe("retry", () => {
  const opts = { attempts: 3, initialDelayMs: 1, maxDelayMs: 2, retryable: (e: unknown) => e !== "fatal" };

  test("stops at the limit and reports the last error", async () => {
    let calls = 0;
    const err = await retry(async () => {
      calls++;
      throw new Error(`e${calls}`);
    }, opts).catch((e) => e);
    expect(err).toBeInstanceOf(RetriesExhausted);
    expect(err.attempts).toBe(3);
    expect(err.lastError.message).toBe("e3");
  });

  test("does not retry non-retryable errors, and returns the first success", async () => {
    let calls = 0;
    await expect(retry(async () => Promise.reject("fatal").finally(() => calls++), opts)).rejects.toBe("fatal");
    expect(calls).toBe(1);
    expect(await retry(async (n) => (n < 2 ? Promise.reject("flaky") : "ok"), opts)).toBe("ok");
  });

  test("delays double from the first up to the cap, each told to onRetry, none after the last attempt", async () => {
    const retries: [number, number, unknown][] = [];
    const started = Date.now();
    const err = await retry((n) => Promise.reject(`e${n}`), {
      ...opts,
      attempts: 5,
      initialDelayMs: 10,
      maxDelayMs: 25,
      onRetry: (attempt, delay, error) => retries.push([attempt, delay, error]),
    }).catch((e) => e);
    expect(retries).toEqual([
      [1, 10, "e1"],
      [2, 20, "e2"],
      [3, 25, "e3"],
      [4, 25, "e4"],
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(10 + 20 + 25 + 25 - 5); // timers may fire a ms early
    expect(err).toMatchObject({ attempts: 5, lastError: "e5", message: "gave up after 5 attempts" });
  });

  test("a limit below one still makes one attempt", async () => {
    let calls = 0;
    const err = await retry(() => Promise.reject(`e${++calls}`), { ...opts, attempts: 0 }).catch((e) => e);
    expect(calls).toBe(1);
    expect(err).toMatchObject({ attempts: 1, lastError: "e1" });
  });
});
