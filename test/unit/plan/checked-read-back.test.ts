import { stepRun } from "../../../provider/plan/step";
import { IpvsService, IpvsTable } from "../../../provider/model/ipvs";
import { planTakenOverRepairs, unappliedEntries } from "../../../provider/plan/checked-read-back";
import { checkedDestination, checkedDestinationKey, checkedServiceId, checkedServiceKey } from "./checked-fixtures";

const service: IpvsService = { id: checkedServiceId, scheduler: "rr", flags: [], onePacket: false };
const destination = checkedDestination;
const serviceKey = checkedServiceKey;
const key = checkedDestinationKey;
const table = (weight?: number, scheduler = "rr"): IpvsTable => ({
  services: { [serviceKey]: { ...service, scheduler } },
  destinations: weight === undefined ? {} : { [key]: { ...destination, weight } },
});
const loaded = (alive: boolean, weight = 3, configuredWeight = 3) => ({ [key]: { alive, weight, configuredWeight } });
const expected = [{ service }, { destination }];
const serving = () => true;

describe("reading keepalived's table back after a reload", () => {
  it("applied: the service and a healthy real server as configured", () => {
    expect(unappliedEntries(expected, table(3), loaded(true), serving)).toEqual([]);
  });

  it("a real server its check keeps out (absent, or weight 0 with inhibit_on_failure) is applied", () => {
    expect(unappliedEntries(expected, table(), loaded(false), serving)).toEqual([]);
    expect(unappliedEntries(expected, table(0), loaded(false), serving)).toEqual([]);
  });

  it("a weight a dynamic misc check set is keepalived's: applied", () => {
    expect(unappliedEntries(expected, table(7), loaded(true, 7, 3), serving)).toEqual([]);
  });

  it("not loaded yet: unknown to the checker, or the checker still has the old weight", () => {
    expect(unappliedEntries(expected, table(1), {}, serving)).toEqual([`real server ${key} is not loaded`]);
    expect(unappliedEntries(expected, table(1), loaded(true, 1, 1), serving)).toEqual([
      `real server ${key} is not loaded`,
    ]);
  });

  it("loaded but the table differs: named with what it holds and what is configured", () => {
    expect(unappliedEntries(expected, table(5), loaded(true), serving)).toEqual([
      `real server ${key} is "-g -w 5 -x 0 -y 0", configured "-g -w 3 -x 0 -y 0"`,
    ]);
    expect(unappliedEntries(expected, table(3, "wlc"), loaded(true), serving)).toEqual([
      `service ${serviceKey} is "-s wlc", configured "-s rr"`,
    ]);
    expect(unappliedEntries(expected, { services: {}, destinations: {} }, loaded(true), serving)).toContain(
      `service ${serviceKey} is not in the table`,
    );
  });

  it("a service without real servers is not expected (keepalived ignores it)", () => {
    expect(unappliedEntries(expected, { services: {}, destinations: {} }, {}, () => false)).toEqual([]);
  });
});

describe("entries a starting checker took over as they were", () => {
  it("edited to what it loaded: the service's options, a healthy real server's weight", () => {
    expect(planTakenOverRepairs(expected, table(5, "wlc"), loaded(true), serving).map(stepRun)).toEqual([
      `ipvsadm -E -t ${serviceKey.slice(4)} -s rr`,
      `ipvsadm -e -t ${serviceKey.slice(4)} -r ${key.split("/")[1]} -g -w 3 -x 0 -y 0`,
    ]);
  });

  it("left alone: as configured, down by its check, not loaded yet, a service not in the table (keepalived adds it)", () => {
    expect(planTakenOverRepairs(expected, table(3), loaded(true), serving).map(stepRun)).toEqual([]);
    expect(planTakenOverRepairs(expected, table(5), loaded(false), serving).map(stepRun)).toEqual([]);
    expect(planTakenOverRepairs(expected, table(5), loaded(true, 1, 1), serving).map(stepRun)).toEqual([]);
    expect(planTakenOverRepairs([{ service }], { services: {}, destinations: {} }, {}, serving).map(stepRun)).toEqual(
      [],
    );
    expect(planTakenOverRepairs(expected, table(5, "wlc"), loaded(true), () => false).map(stepRun)).toEqual([]);
  });
});
