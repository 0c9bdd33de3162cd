import { ipvsTable } from "../../../provider/facts/ipvs-table";
import { IpvsTable } from "../../../provider/facts/ipvs-model";
import { planTableDiff } from "../../../provider/plan/table-diff";
import { ipvsadmFixture } from "../facts/fixtures";

const live = ipvsTable(ipvsadmFixture("ipvsadm-Sn.txt"), ipvsadmFixture("ipvsadm-Ln-exact-thresholds.txt"));
const empty: IpvsTable = { services: {}, destinations: {} };

function pick(table: IpvsTable, serviceKeys: string[]): IpvsTable {
  return {
    services: Object.fromEntries(serviceKeys.map((key) => [key, table.services[key]])),
    destinations: Object.fromEntries(
      Object.entries(table.destinations).filter(([key]) => serviceKeys.some((s) => key.startsWith(`${s}/`))),
    ),
  };
}

describe("planTableDiff", () => {
  it("is converged when live matches desired", () => {
    expect(planTableDiff(live, empty, live)).toEqual([]);
  });

  it("rebuilds owned entries on an empty director, services before real servers", () => {
    expect(planTableDiff(pick(live, ["fwm:5", "udp:203.0.113.106:5060"]), empty, empty)).toEqual([
      "ipvsadm -A -f 5 -s rr",
      "ipvsadm -A -u 203.0.113.106:5060 -s rr -o",
      "ipvsadm -a -u 203.0.113.106:5060 -r 198.51.100.131:5060 -m -w 1 -x 0 -y 0",
      "ipvsadm -a -f 5 -r 198.51.100.131:0 -g -w 1 -x 0 -y 0",
      "ipvsadm -a -f 5 -r 198.51.100.132:0 -g -w 1 -x 0 -y 0",
    ]);
  });

  it("deletes released services once, with their real servers, and leaves foreign entries alone", () => {
    const released = pick(live, ["tcp:203.0.113.108:80"]);
    expect(planTableDiff(empty, released, live)).toEqual(["ipvsadm -D -t 203.0.113.108:80"]);
  });

  it("deletes a released real server of a kept service", () => {
    const desired = pick(live, ["tcp:203.0.113.108:80"]);
    const key = "tcp:203.0.113.108:80/198.51.100.132:8080";
    const released: IpvsTable = { services: {}, destinations: { [key]: desired.destinations[key] } };
    delete desired.destinations[key];
    expect(planTableDiff(desired, released, live)).toEqual(["ipvsadm -d -t 203.0.113.108:80 -r 198.51.100.132:8080"]);
  });
});
