import { renderSnatRule } from "../../../provider/render/snatRules";

test("SNAT replay line", () => {
  expect(renderSnatRule({ vip: "203.0.113.101", port: 80, toSource: "198.51.100.1" })).toBe(
    "iptables -m ipvs --vaddr 203.0.113.101/32 --vport 80 -j SNAT --to-source 198.51.100.1\n",
  );
  expect(renderSnatRule({ vip: "2001:db8::1", port: 80, toSource: "2001:db8:1::1" })).toBe(
    "ip6tables -m ipvs --vaddr 2001:db8::1/128 --vport 80 -j SNAT --to-source 2001:db8:1::1\n",
  );
});
