import { snatRulesFact } from "../../../provider/facts/snatRules";

test("fullnat SNAT rules from iptables -t nat -S POSTROUTING", () => {
  const fact = snatRulesFact("inet");
  expect(fact.command).toBe("iptables -t nat -S POSTROUTING");
  const listing =
    "-P POSTROUTING ACCEPT\n" +
    "-A POSTROUTING -o eth0 -j MASQUERADE\n" +
    "-A POSTROUTING -m ipvs --vaddr 203.0.113.101 --vport 80 -j SNAT --to-source 198.51.100.1\n" +
    "-A POSTROUTING -m ipvs --vaddr 203.0.113.102/32 --vport 443 -j SNAT --to-source 198.51.100.1\n";
  expect(fact.parse(listing)).toEqual([
    { vip: "203.0.113.101", port: 80, toSource: "198.51.100.1" },
    { vip: "203.0.113.102", port: 443, toSource: "198.51.100.1" },
  ]);
  expect(snatRulesFact("inet6").command).toBe("ip6tables -t nat -S POSTROUTING");
  expect(
    snatRulesFact("inet6").parse(
      "-A POSTROUTING -m ipvs --vaddr 2001:db8::1 --vport 80 -j SNAT --to-source 2001:db8:1::1\n",
    ),
  ).toEqual([{ vip: "2001:db8::1", port: 80, toSource: "2001:db8:1::1" }]);
});
