import { iptablesCommand, iptablesTool, ruleFamily } from "../../../provider/model/iptables";

test("every iptables command waits for the xtables lock; the family picks the tool", () => {
  expect(iptablesCommand("inet", "-t", "nat", "-S", "POSTROUTING")).toBe("iptables -w -t nat -S POSTROUTING");
  expect(iptablesCommand("inet6", "-t", "mangle", "-S", "PREROUTING")).toBe("ip6tables -w -t mangle -S PREROUTING");
  // A fragment line starts with the bare tool: the restore script adds -w when it runs it.
  expect(iptablesTool(ruleFamily({ vip: "2001:db8::1" }))).toBe("ip6tables");
  expect(iptablesTool(ruleFamily({ vip: "198.51.100.1" }))).toBe("iptables");
});
