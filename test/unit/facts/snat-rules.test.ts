import { snatRulesFact } from "../../../provider/facts/snat-rules";

test("fullnat SNAT rules from iptables -w -t nat -S POSTROUTING", () => {
  const fact = snatRulesFact("inet");
  expect(fact.command).toBe("iptables -w -t nat -S POSTROUTING");
  const listing =
    "-P POSTROUTING ACCEPT\n" +
    "-A POSTROUTING -o eth0 -j MASQUERADE\n" +
    "-A POSTROUTING -d 198.51.100.21/32 -m ipvs --vaddr 198.51.100.43 --vport 80 -j SNAT --to-source 198.51.100.11\n" +
    "-A POSTROUTING -d 198.51.100.22/32 -m ipvs --vaddr 198.51.100.43 --vport 80 -j SNAT --to-source 192.0.2.11\n" +
    // Other order and a masked --vaddr are tolerated.
    "-A POSTROUTING -m ipvs --vaddr 203.0.113.102/32 --vport 443 -d 198.51.100.23 -j SNAT --to-source 198.51.100.1\n";
  expect(fact.parse(listing)).toEqual([
    { vip: "198.51.100.43", port: 80, rip: "198.51.100.21", toSource: "198.51.100.11" },
    { vip: "198.51.100.43", port: 80, rip: "198.51.100.22", toSource: "192.0.2.11" },
    { vip: "203.0.113.102", port: 443, rip: "198.51.100.23", toSource: "198.51.100.1" },
  ]);
  expect(snatRulesFact("inet6").command).toBe("ip6tables -w -t nat -S POSTROUTING");
  expect(
    snatRulesFact("inet6").parse(
      "-A POSTROUTING -d 2001:db8:2::21/128 -m ipvs --vaddr 2001:db8::1 --vport 80 -j SNAT --to-source 2001:db8:1::1\n",
    ),
  ).toEqual([{ vip: "2001:db8::1", port: 80, rip: "2001:db8:2::21", toSource: "2001:db8:1::1" }]);
});

test("SNAT rules without a host destination are not ours", () => {
  const listing =
    "-A POSTROUTING -m ipvs --vaddr 198.51.100.43 --vport 80 -j SNAT --to-source 198.51.100.11\n" +
    "-A POSTROUTING -d 198.51.100.0/24 -m ipvs --vaddr 198.51.100.43 --vport 80 -j SNAT --to-source 198.51.100.11\n" +
    "-A POSTROUTING ! -d 198.51.100.21/32 -m ipvs --vaddr 198.51.100.43 --vport 80 -j SNAT --to-source 198.51.100.11\n";
  expect(snatRulesFact("inet").parse(listing)).toEqual([]);
});
