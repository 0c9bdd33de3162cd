import { interfaceAddressesFact } from "../../../provider/facts/interface-addresses";

test("addresses on lo from ip -j addr", () => {
  const fact = interfaceAddressesFact("lo");
  expect(fact.command).toBe("ip -j addr show dev lo 2>/dev/null || true");
  const json =
    '[{"ifindex":1,"ifname":"lo","flags":["LOOPBACK","UP","LOWER_UP"],"mtu":65536,"qdisc":"noqueue","operstate":"UNKNOWN",' +
    '"group":"default","txqlen":1000,"link_type":"loopback","address":"00:00:00:00:00:00","broadcast":"00:00:00:00:00:00",' +
    '"addr_info":[{"family":"inet","local":"127.0.0.1","prefixlen":8,"scope":"host","label":"lo","valid_life_time":4294967295,' +
    '"preferred_life_time":4294967295},{"family":"inet","local":"203.0.113.101","prefixlen":32,"scope":"global","label":"lo",' +
    '"valid_life_time":4294967295,"preferred_life_time":4294967295},{"family":"inet6","local":"::1","prefixlen":128,' +
    '"scope":"host","noprefixroute":true,"valid_life_time":4294967295,"preferred_life_time":4294967295}]}]\n';
  expect(fact.parse(json)).toEqual([
    { family: "inet", cidr: "127.0.0.1/8" },
    { family: "inet", cidr: "203.0.113.101/32" },
    { family: "inet6", cidr: "::1/128" },
  ]);
  expect(fact.parse("")).toEqual([]);
});
