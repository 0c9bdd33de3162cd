import { parseCheckerDump } from "../../../provider/facts/checker-state";
import { keepalivedFixture } from "./fixtures";

describe("keepalived's checker dump", () => {
  it("gives each real server's health and weight by destination key, fwmark and IPv6 included", () => {
    expect(parseCheckerDump(keepalivedFixture("check-data-2.2.7.txt"))).toEqual({
      "tcp:198.51.100.51:80/198.51.100.21:80": { alive: true, weight: 2, configuredWeight: 2 },
      "tcp:198.51.100.51:80/198.51.100.22:80": { alive: false, weight: 1, configuredWeight: 1 },
      "fwm6:7/[2001:db8:1::21]:0": { alive: true, weight: 1, configuredWeight: 1 },
    });
  });

  it("no dump (keepalived not running): nothing known", () => {
    expect(parseCheckerDump("")).toEqual({});
  });
});
