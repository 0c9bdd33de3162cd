import { bootSysctls, interfaceSysctl, planSysctls } from "../../../provider/plan/sysctls";

describe("planSysctls", () => {
  it("sets only differing keys, in key order", () => {
    const wanted = { "net.ipv4.ip_forward": "1", "net.ipv4.conf.all.arp_ignore": "1" };
    expect(planSysctls(wanted, { "net.ipv4.ip_forward": "0", "net.ipv4.conf.all.arp_ignore": "1" })).toEqual([
      "sysctl -w net.ipv4.ip_forward=1",
    ]);
    expect(planSysctls(wanted, wanted)).toEqual([]);
  });

  it("keeps loose rp_filter (2) where 0 is wanted, fixes strict (1)", () => {
    const wanted = { "net.ipv4.conf.all.rp_filter": "0", "net.ipv4.conf.tunl0.rp_filter": "0" };
    expect(planSysctls(wanted, { "net.ipv4.conf.all.rp_filter": "2", "net.ipv4.conf.tunl0.rp_filter": "1" })).toEqual([
      "sysctl -w net.ipv4.conf.tunl0.rp_filter=0",
    ]);
  });

  it("the boot file leaves a hardened rp_filter (2) alone as the live plan does; 1 or unset become 0", () => {
    const wanted = {
      "net.ipv4.conf.all.arp_ignore": "1",
      "net.ipv4.conf.all.rp_filter": "0",
      "net.ipv4.conf.tunl0.rp_filter": "0",
    };
    const live = { "net.ipv4.conf.all.arp_ignore": "0", "net.ipv4.conf.all.rp_filter": "2" };
    expect(bootSysctls(wanted, live)).toEqual({
      "net.ipv4.conf.all.arp_ignore": "1",
      "net.ipv4.conf.tunl0.rp_filter": "0",
    });
    expect(bootSysctls(wanted, { ...live, "net.ipv4.conf.all.rp_filter": "1" })).toEqual(wanted);
  });

  it("writes dotted interface names with slashes", () => {
    expect(interfaceSysctl("ipv4", "eth0.100", "arp_ignore")).toBe("net.ipv4.conf.eth0/100.arp_ignore");
  });
});
