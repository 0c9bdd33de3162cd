import { stepRun } from "../../../provider/plan/step";
import { ipvsTable } from "../../../provider/facts/ipvs-table";
import { IpvsDestination } from "../../../provider/model/ipvs";
import { parseIpvsSave } from "../../../provider/facts/ipvs-save";
import {
  desiredDestination,
  desiredSnatRule,
  planDestination,
  planDestinationRemoval,
  planQuiesce,
} from "../../../provider/plan/real-server";
import { realServerInputsSchema } from "../../../provider/schemas/real-server";
import { ipvsadmFixture } from "../facts/fixtures";

const live = ipvsTable(ipvsadmFixture("ipvsadm-Sn.txt"), ipvsadmFixture("ipvsadm-Ln-exact-thresholds.txt"));
const web = { protocol: "tcp", address: "203.0.113.108", port: 80 } as const;

describe("planDestination", () => {
  it("is converged for every real server in the captured table", () => {
    for (const dest of Object.values(live.destinations)) expect(planDestination(dest, live).map(stepRun)).toEqual([]);
  });

  it("adds a missing real server with all its options", () => {
    const dest: IpvsDestination = {
      service: web,
      address: "198.51.100.140",
      port: 8080,
      forwarding: "nat",
      weight: 5,
      upperThreshold: 0,
      lowerThreshold: 0,
    };
    expect(planDestination(dest, live).map(stepRun)).toEqual([
      "ipvsadm -a -t 203.0.113.108:80 -r 198.51.100.140:8080 -m -w 5 -x 0 -y 0",
    ]);
  });

  it("edits weight and thresholds in place", () => {
    const current = live.destinations["tcp:203.0.113.108:80/198.51.100.131:80"];
    expect(planDestination({ ...current, weight: 0 }, live).map(stepRun)).toEqual([
      "ipvsadm -e -t 203.0.113.108:80 -r 198.51.100.131:80 -m -w 0 -x 100 -y 10",
    ]);
    expect(planDestination({ ...current, upperThreshold: 0, lowerThreshold: 0 }, live).map(stepRun)).toEqual([
      "ipvsadm -e -t 203.0.113.108:80 -r 198.51.100.131:80 -m -w 3 -x 0 -y 0",
    ]);
  });

  it("edits the forwarding method", () => {
    const current = live.destinations["tcp:203.0.113.109:80/198.51.100.131:80"];
    expect(planDestination({ ...current, forwarding: "tun", tunnel: { type: "ipip" } }, live).map(stepRun)).toEqual([
      "ipvsadm -e -t 203.0.113.109:80 -r 198.51.100.131:80 -i -w 2 -x 0 -y 0",
    ]);
  });

  it("adds IPv6 and fwmark real servers", () => {
    const v6: IpvsDestination = {
      service: { protocol: "tcp", address: "2001:db8:100::100", port: 80 },
      address: "2001:db8:100::13",
      port: 80,
      forwarding: "dr",
      weight: 1,
      upperThreshold: 0,
      lowerThreshold: 0,
    };
    expect(planDestination(v6, live).map(stepRun)).toEqual([
      "ipvsadm -a -t '[2001:db8:100::100]:80' -r '[2001:db8:100::13]:80' -g -w 1 -x 0 -y 0",
    ]);
    const fwm: IpvsDestination = { ...v6, service: { fwmark: 5, family: "inet" }, address: "198.51.100.133", port: 0 };
    expect(planDestination(fwm, live).map(stepRun)).toEqual(["ipvsadm -a -f 5 -r 198.51.100.133:0 -g -w 1 -x 0 -y 0"]);
  });
});

describe("planDestinationRemoval", () => {
  it("deletes a present real server", () => {
    expect(planDestinationRemoval(web, "198.51.100.132", 8080, live).map(stepRun)).toEqual([
      "ipvsadm -d -t 203.0.113.108:80 -r 198.51.100.132:8080",
    ]);
  });

  it("does nothing when it or its service is gone", () => {
    expect(planDestinationRemoval(web, "198.51.100.199", 80, live).map(stepRun)).toEqual([]);
    expect(planDestinationRemoval({ ...web, port: 81 }, "198.51.100.131", 80, live).map(stepRun)).toEqual([]);
  });
});

describe("planQuiesce", () => {
  const table = parseIpvsSave(
    "-A -t 198.51.100.40:80 -s wrr\n-a -t 198.51.100.40:80 -r 198.51.100.21:80 -g -w 3\n-a -t 198.51.100.40:80 -r 198.51.100.22:80 -g -w 0\n",
  );
  const service = { protocol: "tcp" as const, address: "198.51.100.40", port: 80 };

  it("sets weight 0 and keeps every other option", () => {
    expect(planQuiesce(service, "198.51.100.21", 80, table).map(stepRun)).toEqual([
      "ipvsadm -e -t 198.51.100.40:80 -r 198.51.100.21:80 -g -w 0 -x 0 -y 0",
    ]);
  });

  it("does nothing for a real server already at weight 0 or gone", () => {
    expect(planQuiesce(service, "198.51.100.22", 80, table).map(stepRun)).toEqual([]);
    expect(planQuiesce(service, "198.51.100.23", 80, table).map(stepRun)).toEqual([]);
  });
});

describe("the desired entry from inputs", () => {
  const live = ipvsTable(ipvsadmFixture("ipvsadm-Sn.txt"), ipvsadmFixture("ipvsadm-Ln-exact-thresholds.txt"));
  const directors = [{ host: "192.0.2.10", insecureSkipHostKeyCheck: true }];

  it("defaults the real server port to the service port, 0 for fwmark, and tunnels with ipip", () => {
    const base = {
      directors,
      service: { protocol: "tcp", address: "203.0.113.109", port: 80 },
      address: "198.51.100.132",
      forwarding: "tun",
    };
    expect(planDestination(desiredDestination(realServerInputsSchema().parse(base)), live)).toEqual([]);
    const fwm = desiredDestination(
      realServerInputsSchema().parse({ directors, service: { fwmark: 5 }, address: "198.51.100.131" }),
    );
    expect(planDestination(fwm, live)).toEqual([]);
  });

  it("turns fullnat into masquerading plus an SNAT rule", () => {
    const inputs = realServerInputsSchema().parse({
      directors,
      service: { protocol: "tcp", address: "203.0.113.101", port: 80 },
      address: "198.51.100.131",
      forwarding: "fullnat",
      snatSource: "198.51.100.1",
    });
    expect(desiredDestination(inputs).forwarding).toBe("nat");
    expect(desiredSnatRule(inputs)).toEqual({
      vip: "203.0.113.101",
      port: 80,
      rip: "198.51.100.131",
      toSource: "198.51.100.1",
    });
    expect(desiredSnatRule({ ...inputs, forwarding: "nat" })).toBeUndefined();
  });

  it("gives each fullnat real server of a service its own SNAT rule", () => {
    const service = { protocol: "tcp", address: "2001:DB8::43", port: 80 };
    const one = realServerInputsSchema().parse({
      directors,
      service,
      address: "2001:DB8:2:0::21",
      forwarding: "fullnat",
      snatSource: "2001:db8:2::11",
    });
    const two = realServerInputsSchema().parse({
      directors,
      service,
      address: "2001:db8:3::22",
      forwarding: "fullnat",
      snatSource: "2001:db8:3::11",
    });
    expect(desiredSnatRule(one)).toEqual({
      vip: "2001:db8::43",
      port: 80,
      rip: "2001:db8:2::21",
      toSource: "2001:db8:2::11",
    });
    expect(desiredSnatRule(two)).toMatchObject({ rip: "2001:db8:3::22", toSource: "2001:db8:3::11" });
  });
});
