import { stepRun } from "../../../provider/plan/step";
import { IpvsTable } from "../../../provider/model/ipvs";
import { judgedEntry, planCheckedRepair } from "../../../provider/plan/checked-real-server";
import { checkedDestination, checkedDestinationKey } from "./checked-fixtures";

const desired = checkedDestination;
const key = checkedDestinationKey;
const table = (weight?: number): IpvsTable => ({
  services: {},
  destinations: weight === undefined ? {} : { [key]: { ...desired, weight } },
});

describe("a checked real server judged by refresh", () => {
  it("taken out by its check (absent, or weight 0 with inhibit_on_failure): as desired, health down", () => {
    expect(judgedEntry(desired, undefined, { alive: false, weight: 3, configuredWeight: 3 })).toEqual({
      entry: desired,
      health: "down",
    });
    const inhibited = { ...desired, weight: 0 };
    expect(judgedEntry(desired, inhibited, { alive: false, weight: 3, configuredWeight: 3 })).toEqual({
      entry: desired,
      health: "down",
    });
  });

  it("healthy: the entry as it is (a hand edit shows), health up", () => {
    const edited = { ...desired, weight: 9 };
    expect(judgedEntry(desired, edited, { alive: true, weight: 3, configuredWeight: 3 })).toEqual({
      entry: edited,
      health: "up",
    });
    expect(judgedEntry(desired, undefined, { alive: true, weight: 3, configuredWeight: 3 })).toEqual({
      entry: undefined,
      health: "up",
    });
  });

  it("a weight its dynamic misc check set reads as configured; one keepalived did not set is drift", () => {
    const dynamic = { ...desired, weight: 7 };
    const state = { alive: true, weight: 7, configuredWeight: 3 };
    expect(judgedEntry(desired, dynamic, state)).toEqual({ entry: desired, health: "up" });
    expect(judgedEntry(desired, { ...desired, weight: 9 }, state)).toEqual({
      entry: { ...desired, weight: 9 },
      health: "up",
    });
  });

  it("without keepalived's view: the entry as it is, no health", () => {
    expect(judgedEntry(desired, undefined, undefined)).toEqual({ entry: undefined, health: undefined });
  });
});

describe("repairing keepalived's entry", () => {
  it("a healthy real server deleted or edited by hand is put back at keepalived's weight", () => {
    expect(planCheckedRepair(desired, { alive: true, weight: 3, configuredWeight: 3 }, table()).map(stepRun)).toEqual([
      "ipvsadm -a -t 198.51.100.49:80 -r 198.51.100.21:80 -g -w 3 -x 0 -y 0",
    ]);
    expect(
      planCheckedRepair(desired, { alive: true, weight: 5, configuredWeight: 3 }, table(9)).map(stepRun)[0],
    ).toMatch(/^ipvsadm -e .* -w 5 /);
    expect(planCheckedRepair(desired, { alive: true, weight: 3, configuredWeight: 3 }, table(3)).map(stepRun)).toEqual(
      [],
    );
  });

  it("one that is down, or unknown to keepalived, is left to keepalived", () => {
    expect(planCheckedRepair(desired, { alive: false, weight: 3, configuredWeight: 3 }, table()).map(stepRun)).toEqual(
      [],
    );
    expect(planCheckedRepair(desired, undefined, table()).map(stepRun)).toEqual([]);
  });
});
