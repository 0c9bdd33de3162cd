import { destinationKey, isFwmarkService, KernelForwarding, ServiceId, serviceKey } from "../../../provider/model/ipvs";
import { ForwardingMethod } from "../../../provider/model/vocabulary";
import { ipvsadmFixture } from "../facts/fixtures";

const listing = ipvsadmFixture("ipvsadm-Ln-exact.txt");
const saved = ipvsadmFixture("ipvsadm-Sn.txt");

describe("service keys", () => {
  it("name an address service by protocol and VIP:port as ipvsadm prints them, IPv6 in brackets", () => {
    const v4: ServiceId = { protocol: "tcp", address: "203.0.113.101", port: 80 };
    const v6: ServiceId = { protocol: "tcp", address: "2001:db8:100::100", port: 80 };
    const udp: ServiceId = { protocol: "udp", address: "203.0.113.105", port: 53 };
    expect(serviceKey(v4)).toBe("tcp:203.0.113.101:80");
    expect(serviceKey(v6)).toBe("tcp:[2001:db8:100::100]:80");
    expect(serviceKey(udp)).toBe("udp:203.0.113.105:53");
    // The part after the protocol is the text of the real listing and dump.
    expect(listing).toContain("TCP  [2001:db8:100::100]:80 rr");
    expect(saved).toContain("-A -u 203.0.113.105:53 -s rr");
  });

  it("name a fwmark service by mark and family: one mark may serve IPv4 and IPv6 as two services", () => {
    expect(serviceKey({ fwmark: 5, family: "inet" })).toBe("fwm:5");
    expect(serviceKey({ fwmark: 5, family: "inet6" })).toBe("fwm6:5");
  });

  it("differ for services that differ in any part of their identity", () => {
    const ids: ServiceId[] = [
      { protocol: "tcp", address: "203.0.113.101", port: 80 },
      { protocol: "udp", address: "203.0.113.101", port: 80 },
      { protocol: "sctp", address: "203.0.113.101", port: 80 },
      { protocol: "tcp", address: "203.0.113.102", port: 80 },
      { protocol: "tcp", address: "203.0.113.101", port: 8080 },
      { fwmark: 80, family: "inet" },
      { fwmark: 80, family: "inet6" },
    ];
    expect(new Set(ids.map(serviceKey)).size).toBe(ids.length);
  });
});

test("destination keys are the service key and the real server as ipvsadm prints it (port 0 under a fwmark)", () => {
  const web: ServiceId = { protocol: "tcp", address: "2001:db8:100::100", port: 80 };
  expect(destinationKey(web, "2001:db8:100::11", 80)).toBe("tcp:[2001:db8:100::100]:80/[2001:db8:100::11]:80");
  expect(listing).toContain("  -> [2001:db8:100::11]:80 ");
  expect(destinationKey({ fwmark: 5, family: "inet" }, "198.51.100.131", 0)).toBe("fwm:5/198.51.100.131:0");
  expect(saved).toContain("-a -f 5 -r 198.51.100.131:0 -g -w 1");
});

test("isFwmarkService tells the two kinds of identity apart", () => {
  expect(isFwmarkService({ fwmark: 5, family: "inet" })).toBe(true);
  expect(isFwmarkService({ protocol: "tcp", address: "203.0.113.101", port: 80 })).toBe(false);
});

// Compile-level: tsc fails this file when the two types stop being the same set of words.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

test("the kernel's forwarding methods are the inputs' without fullnat (nat plus SNAT outside IPVS)", () => {
  const same: Same<KernelForwarding, Exclude<ForwardingMethod, "fullnat">> = true;
  expect(same).toBe(true);
});
