import { stepRun } from "../../../provider/plan/step";
import { ipvsTable } from "../../../provider/facts/ipvs-table";
import { IpvsService, IpvsTable } from "../../../provider/model/ipvs";
import { planService, planServiceRemoval } from "../../../provider/plan/virtual-service";
import { ipvsadmFixture } from "../facts/fixtures";

const live: IpvsTable = ipvsTable(ipvsadmFixture("ipvsadm-Sn.txt"), ipvsadmFixture("ipvsadm-Ln-exact-thresholds.txt"));

describe("planService", () => {
  it("is converged for every service in the captured table", () => {
    for (const service of Object.values(live.services)) expect(planService(service, live).map(stepRun)).toEqual([]);
  });

  it("creates a missing service", () => {
    const service: IpvsService = {
      id: { protocol: "tcp", address: "2001:db8::5", port: 443 },
      scheduler: "mh",
      flags: ["mh-fallback", "mh-port"],
      persistence: { timeoutSeconds: 300, netmask: "64" },
      onePacket: false,
    };
    expect(planService(service, live).map(stepRun)).toEqual([
      "ipvsadm -A -t '[2001:db8::5]:443' -s mh -b mh-fallback,mh-port -p 300 -M 64",
    ]);
  });

  it("edits in place when scheduler, persistence or ops differ", () => {
    const current = live.services["tcp:203.0.113.107:443"];
    expect(planService({ ...current, scheduler: "wrr" }, live).map(stepRun)).toEqual([
      "ipvsadm -E -t 203.0.113.107:443 -s wrr -p 60 -M 255.255.255.0",
    ]);
    expect(planService({ ...current, persistence: undefined }, live).map(stepRun)).toEqual([
      "ipvsadm -E -t 203.0.113.107:443 -s wlc",
    ]);
    const udp = live.services["udp:203.0.113.105:53"];
    expect(planService({ ...udp, onePacket: true }, live).map(stepRun)).toEqual([
      "ipvsadm -E -u 203.0.113.105:53 -s rr -o",
    ]);
  });

  it("creates fwmark services of either family", () => {
    const v6: IpvsService = { id: { fwmark: 5, family: "inet6" }, scheduler: "rr", flags: [], onePacket: false };
    expect(planService(v6, live).map(stepRun)).toEqual(["ipvsadm -A -f 5 -6 -s rr"]);
  });
});

describe("planServiceRemoval", () => {
  it("deletes a present service", () => {
    expect(planServiceRemoval({ fwmark: 5, family: "inet" }, live).map(stepRun)).toEqual(["ipvsadm -D -f 5"]);
    expect(planServiceRemoval({ protocol: "tcp", address: "2001:db8:100::100", port: 80 }, live).map(stepRun)).toEqual([
      "ipvsadm -D -t '[2001:db8:100::100]:80'",
    ]);
  });

  it("does nothing when already gone", () => {
    expect(planServiceRemoval({ protocol: "udp", address: "203.0.113.250", port: 53 }, live).map(stepRun)).toEqual([]);
  });
});
