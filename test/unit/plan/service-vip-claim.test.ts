import { parseHostClaims } from "../../../provider/facts/host-claims";
import { parseRoutes } from "../../../provider/facts/routes";
import { chooseVipDevice, serviceVipClaim, vipCidrs } from "../../../provider/plan/service-vip-claim";
import { renderClaimFile } from "../../../provider/render/claim-file";
import { hostFixture } from "./host-fixtures";

// The captured host (test/fixtures/host): lab addresses route via eth0's default routes.
const route4 = parseRoutes(hostFixture("ip-route-get-203.0.113.101.json"))[0];
const route6 = parseRoutes(hostFixture("ip-route-get-2001-db8--101.json"))[0];
const defaults4 = parseRoutes(hostFixture("ip-route-show.json"));
const base = "vs:tcp:203.0.113.101:80";
const claimOf = (id: string, dev: string) =>
  parseHostClaims(
    renderClaimFile({
      id,
      vips: [{ dev, cidr: "203.0.113.101/32", announce: true }],
      sysctls: {},
      routes: [],
      modules: [],
      links: [],
    }),
  );

test("a service's VIPs as host addresses of their family, written canonically", () => {
  expect(vipCidrs(["203.0.113.101"])).toEqual({ family: "inet", cidrs: ["203.0.113.101/32"] });
  expect(vipCidrs(["2001:DB8:0::101", "2001:db8::102"])).toEqual({
    family: "inet6",
    cidrs: ["2001:db8::101/128", "2001:db8::102/128"],
  });
});

describe("the device a director holds a VIP on", () => {
  test("where the route toward it leaves (ip route get), IPv4 and IPv6", () => {
    expect(
      chooseVipDevice("dir1", base, "203.0.113.101", "203.0.113.101/32", { route: route4, defaults: [], claims: [] }),
    ).toBe("eth0");
    expect(
      chooseVipDevice("dir1", base, "2001:db8::101", "2001:db8::101/128", { route: route6, defaults: [], claims: [] }),
    ).toBe("eth0");
  });

  test("once held it routes via lo: the device a claim of the service (any owner's) holds it on is kept", () => {
    const viaLo = { ...route4, dev: "lo" };
    const held = claimOf(`${base}@0123456789ab`, "eth1");
    expect(
      chooseVipDevice("dir1", base, "203.0.113.101", "203.0.113.101/32", {
        route: viaLo,
        defaults: defaults4,
        claims: held,
      }),
    ).toBe("eth1");
    expect(
      chooseVipDevice("dir1", base, "203.0.113.101", "203.0.113.101/32", {
        route: route4,
        defaults: defaults4,
        claims: held,
      }),
    ).toBe("eth1");
    // Another service's claim of the same address says nothing of this one: the default route decides.
    const other = claimOf("vs:tcp:203.0.113.101:443", "eth1");
    expect(
      chooseVipDevice("dir1", base, "203.0.113.101", "203.0.113.101/32", {
        route: viaLo,
        defaults: defaults4,
        claims: other,
      }),
    ).toBe("eth0");
  });

  test("no claim, no route off lo and no default route: refused, naming the host and vipInterface", () => {
    expect(() =>
      chooseVipDevice("root@198.51.100.11:22", base, "203.0.113.101", "203.0.113.101/32", {
        route: { ...route4, dev: "lo" },
        defaults: defaults4.filter((r) => r.dst !== "default"),
        claims: [],
      }),
    ).toThrow("host root@198.51.100.11:22: no interface to hold VIP 203.0.113.101; set vipInterface");
  });
});

test("the claim holds the VIPs announced; an IPv6 VIP's device gets ndisc_notify, once per device", () => {
  const held = (dev: string, cidr: string) => ({ dev, cidr, announce: true });
  expect(serviceVipClaim("vs:tcp:203.0.113.101:80", "inet", [held("eth0", "203.0.113.101/32")])).toEqual({
    id: "vs:tcp:203.0.113.101:80",
    vips: [held("eth0", "203.0.113.101/32")],
    sysctls: {},
    routes: [],
    modules: [],
    links: [],
  });
  const v6 = serviceVipClaim("vs:fwm6:7", "inet6", [
    held("eth0", "2001:db8::101/128"),
    held("eth0", "2001:db8::102/128"),
    held("eth0.100", "2001:db8::103/128"),
  ]);
  expect(v6.sysctls).toEqual({ "net.ipv6.conf.eth0.ndisc_notify": "1", "net.ipv6.conf.eth0/100.ndisc_notify": "1" });
});
