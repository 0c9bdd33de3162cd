import { announceSysctls, announceVip } from "../../../provider/plan/announce";

describe("announceVip: gratuitous ARP for an IPv4 VIP that faces clients", () => {
  it("two unsolicited ARPs from the VIP's device, with the address alone (no prefix)", () => {
    expect(announceVip({ dev: "eth0", cidr: "203.0.113.101/32", announce: true })).toEqual([
      "arping -q -U -c 2 -I eth0 203.0.113.101",
    ]);
  });

  it("nothing for a VIP not marked to announce (a real server's VIP on lo must stay silent)", () => {
    expect(announceVip({ dev: "lo", cidr: "203.0.113.101/32" })).toEqual([]);
    expect(announceVip({ dev: "eth0", cidr: "203.0.113.101/32", announce: false })).toEqual([]);
  });

  it("nothing for IPv6: the kernel advertises it, as announceSysctls asks", () => {
    expect(announceVip({ dev: "eth0", cidr: "2001:db8::1/128", announce: true })).toEqual([]);
  });
});

describe("announceSysctls: ndisc_notify on the VIP's device", () => {
  it("is the device's IPv6 setting", () => {
    expect(announceSysctls("eth0")).toEqual({ "net.ipv6.conf.eth0.ndisc_notify": "1" });
  });

  it("writes a VLAN device's dots as slashes, as sysctl keys need", () => {
    expect(announceSysctls("eth0.100")).toEqual({ "net.ipv6.conf.eth0/100.ndisc_notify": "1" });
  });
});
