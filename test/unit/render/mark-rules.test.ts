import { renderMarkRules } from "../../../provider/render/mark-rules";

test("mark rules replay lines", () => {
  const rule = { owner: "fwm:7", vip: "198.51.100.51", protocol: "tcp" as const, ports: "80", mark: 7 };
  expect(renderMarkRules([rule, { ...rule, ports: "8000:8100" }])).toBe(
    "iptables -d 198.51.100.51/32 -p tcp -m tcp --dport 80 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7\n" +
      "iptables -d 198.51.100.51/32 -p tcp -m tcp --dport 8000:8100 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7\n",
  );
  expect(renderMarkRules([{ ...rule, owner: "fwm6:9", vip: "2001:db8:1::100", mark: 9 }])).toBe(
    "ip6tables -d 2001:db8:1::100/128 -p tcp -m tcp --dport 80 -m comment --comment lvs-pulumi:fwm6:9 -j MARK --set-mark 9\n",
  );
  expect(renderMarkRules([])).toBe("");
});
