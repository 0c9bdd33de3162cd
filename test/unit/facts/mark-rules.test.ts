import { markRulesFact } from "../../../provider/facts/mark-rules";
import { iptablesFixture } from "./fixtures";

test("fwmark mark rules of ours from iptables -w -t mangle -S PREROUTING", () => {
  const fact = markRulesFact("inet");
  expect(fact.command).toBe("iptables -w -t mangle -S PREROUTING");
  // The rule without a comment, the one matching an interface and the one with another comment are not ours.
  expect(fact.parse(iptablesFixture("mangle-PREROUTING.txt"))).toEqual([
    { owner: "fwm:7", vip: "198.51.100.51", protocol: "tcp", ports: "80", mark: 7 },
    { owner: "fwm:7", vip: "198.51.100.51", protocol: "tcp", ports: "8000:8100", mark: 7 },
    { owner: "fwm:4294967295", vip: "198.51.100.52", protocol: "sctp", ports: "9", mark: 4294967295 },
  ]);
});

test("IPv6 mark rules from ip6tables", () => {
  const fact = markRulesFact("inet6");
  expect(fact.command).toBe("ip6tables -w -t mangle -S PREROUTING");
  expect(fact.parse(iptablesFixture("ip6-mangle-PREROUTING.txt"))).toEqual([
    { owner: "fwm6:9", vip: "2001:db8:1::100", protocol: "tcp", ports: "443", mark: 9 },
  ]);
});

test("a rule of ours edited by hand into another shape is not read as ours", () => {
  const listing =
    '-A PREROUTING -s 203.0.113.0/24 -d 198.51.100.51/32 -p tcp -m tcp --dport 80 -m comment --comment "lvs-pulumi:fwm:7" -j MARK --set-xmark 0x7/0xffffffff\n' +
    '-A PREROUTING -d 198.51.100.51/32 -p tcp -m tcp --dport 80 -m comment --comment "lvs-pulumi:fwm:7" -j MARK --set-xmark 0x7/0xff\n' +
    '-A PREROUTING -d 198.51.100.0/24 -p tcp -m tcp --dport 80 -m comment --comment "lvs-pulumi:fwm:7" -j MARK --set-xmark 0x7/0xffffffff\n';
  expect(markRulesFact("inet").parse(listing)).toEqual([]);
});
