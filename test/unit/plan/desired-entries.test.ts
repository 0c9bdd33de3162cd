import { ipvsTable } from "../../../provider/facts/ipvs-table";
import { desiredMarkRules, desiredService, serviceVips } from "../../../provider/plan/desired-entries";
import { planService } from "../../../provider/plan/virtual-service";
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
