import { renderSnatRule } from "../../../provider/render/snat-rules";

test("SNAT replay line", () => {
  expect(renderSnatRule({ vip: "198.51.100.43", port: 80, rip: "198.51.100.21", toSource: "198.51.100.11" })).toBe(
    "iptables -d 198.51.100.21/32 -m ipvs --vaddr 198.51.100.43/32 --vport 80 -j SNAT --to-source 198.51.100.11\n",
  );
  expect(renderSnatRule({ vip: "2001:db8::1", port: 80, rip: "2001:db8:2::21", toSource: "2001:db8:1::1" })).toBe(
    "ip6tables -d 2001:db8:2::21/128 -m ipvs --vaddr 2001:db8::1/128 --vport 80 -j SNAT --to-source 2001:db8:1::1\n",
  );
});
