import { moreThanOneHolder, outage } from "../../lab/failover";

const at = (ms: number, ok: boolean) => ({ at: 1_000_000 + ms, ok });

describe("outage", () => {
  it("counts the failures after the fault and when requests were served again", () => {
    const requests = [at(-100, true), at(50, false), at(1100, false), at(2200, true), at(2300, true), at(9000, false)];
    expect(outage(requests, 1_000_000, 1_000_000 + 5000)).toEqual({
      failed: 2,
      failures: [50, 1100],
      servedAgainAfterMs: 2200,
      served: 2,
    });
  });

  it("is 0 with no failure, undefined when nothing was served after the last failure", () => {
    expect(outage([at(10, true)], 1_000_000).servedAgainAfterMs).toBe(0);
    expect(outage([at(10, true), at(20, false)], 1_000_000).servedAgainAfterMs).toBeUndefined();
  });
});

test("moreThanOneHolder lists the split-brain samples only", () => {
  expect(moreThanOneHolder({ samples: 4, seen: { dir1: 2, "": 1, "dir1+dir2": 1 } })).toEqual(["dir1+dir2"]);
  expect(moreThanOneHolder({ samples: 2, seen: { dir2: 2 } })).toEqual([]);
});
