import { ipvsTable } from "../../../provider/facts/ipvs-table";
import {
  desiredDestination,
  desiredMarkRules,
  desiredService,
  desiredSnatRule,
  serviceVips,
} from "../../../provider/plan/desired-entries";
import { planDestination } from "../../../provider/plan/real-server";
import { planService } from "../../../provider/plan/virtual-service";
import { realServerInputsSchema } from "../../../provider/schemas/real-server";
import { virtualServiceInputsSchema } from "../../../provider/schemas/virtual-service";
import { ipvsadmFixture } from "../facts/fixtures";

const live = ipvsTable(ipvsadmFixture("ipvsadm-Sn.txt"), ipvsadmFixture("ipvsadm-Ln-exact-thresholds.txt"));
const directors = [{ host: "192.0.2.10", insecureSkipHostKeyCheck: true }];

describe("desired entries from inputs", () => {
  it("match the captured table after normalising addresses and default netmasks", () => {
    const service = desiredService(
      virtualServiceInputsSchema().parse({
        directors,
        protocol: "tcp",
        address: "2001:DB8:100:0::101",
        port: 443,
        scheduler: "sh",
        schedulerFlags: ["sh-port"],
        persistence: { timeoutSeconds: 300, netmask: 64 },
      }),
    );
    expect(planService(service, live)).toEqual([]);
    const hostMask = desiredService(
      virtualServiceInputsSchema().parse({
        directors,
        protocol: "tcp",
        address: "203.0.113.108",
        port: 80,
        persistence: { timeoutSeconds: 60, netmask: "255.255.255.255" },
      }),
    );
    expect(hostMask.persistence).toEqual({ timeoutSeconds: 60 });
  });

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

  it("turns a fwmark match into one mark rule per VIP and port (range), as iptables lists them", () => {
    const inputs = virtualServiceInputsSchema().parse({
      directors,
      fwmark: 7,
      match: { protocol: "tcp", addresses: ["198.51.100.51", "198.51.100.52"], ports: [80, "8000-8100", "80", 443] },
    });
    const rule = { owner: "fwm:7", protocol: "tcp", mark: 7 };
    expect(desiredMarkRules(inputs)).toEqual([
      { ...rule, vip: "198.51.100.51", ports: "80" },
      { ...rule, vip: "198.51.100.51", ports: "8000:8100" },
      { ...rule, vip: "198.51.100.51", ports: "443" },
      { ...rule, vip: "198.51.100.52", ports: "80" },
      { ...rule, vip: "198.51.100.52", ports: "8000:8100" },
      { ...rule, vip: "198.51.100.52", ports: "443" },
    ]);
    expect(serviceVips(inputs)).toEqual(["198.51.100.51", "198.51.100.52"]);
  });

  it("gives an IPv6 fwmark service canonical VIPs and its own owner; no match, no rules", () => {
    const inputs = virtualServiceInputsSchema().parse({
      directors,
      fwmark: 9,
      family: "inet6",
      match: { protocol: "udp", addresses: ["2001:DB8:1:0::100", "2001:db8:1::100"], ports: ["53"] },
    });
    expect(desiredMarkRules(inputs)).toEqual([
      { owner: "fwm6:9", vip: "2001:db8:1::100", protocol: "udp", ports: "53", mark: 9 },
    ]);
    expect(desiredMarkRules(virtualServiceInputsSchema().parse({ directors, fwmark: 9 }))).toEqual([]);
    expect(serviceVips(virtualServiceInputsSchema().parse({ directors, fwmark: 9 }))).toEqual([]);
    expect(
      desiredMarkRules(
        virtualServiceInputsSchema().parse({ directors, protocol: "tcp", address: "198.51.100.51", port: 80 }),
      ),
    ).toEqual([]);
  });
});
