import { routesFact, routeToFact } from "../../../provider/facts/routes";

describe("routes", () => {
  it("reads the main table", () => {
    const fact = routesFact("inet");
    expect(fact.command).toBe("ip -j route show");
    const json =
      '[{"dst":"default","gateway":"192.0.2.1","dev":"eth0","protocol":"dhcp","prefsrc":"192.0.2.20","metric":100,"flags":[]},' +
      '{"dst":"192.0.2.0/24","dev":"eth0","protocol":"kernel","scope":"link","prefsrc":"192.0.2.20","flags":[]}]\n';
    expect(fact.parse(json)).toEqual([
      { dst: "default", gateway: "192.0.2.1", dev: "eth0", prefsrc: "192.0.2.20" },
      { dst: "192.0.2.0/24", dev: "eth0", prefsrc: "192.0.2.20" },
    ]);
    expect(routesFact("inet6").command).toBe("ip -j -6 route show");
  });

  it("finds the egress interface toward an address", () => {
    const fact = routeToFact("198.51.100.1");
    expect(fact.command).toBe("ip -j route get 198.51.100.1");
    const json = '[{"dst":"198.51.100.1","dev":"eth1","prefsrc":"198.51.100.131","flags":[],"uid":0,"cache":[]}]\n';
    expect(fact.parse(json)).toEqual({ dst: "198.51.100.1", dev: "eth1", prefsrc: "198.51.100.131" });
  });
});
