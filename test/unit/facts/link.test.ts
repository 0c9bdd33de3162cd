import { linkFact } from "../../../provider/facts/link";

test("tunl0 presence and state from ip -j link", () => {
  const fact = linkFact("tunl0");
  expect(fact.command).toBe("ip -j link show tunl0 2>/dev/null || true");
  const down =
    '[{"ifindex":4,"ifname":"tunl0","flags":["NOARP"],"mtu":1480,"qdisc":"noop","operstate":"DOWN","group":"default",' +
    '"txqlen":1000,"link_type":"ipip","address":"0.0.0.0","broadcast":"0.0.0.0"}]\n';
  expect(fact.parse(down)).toEqual({ present: true, up: false });
  expect(fact.parse(down.replace('["NOARP"]', '["NOARP","UP","LOWER_UP"]'))).toEqual({ present: true, up: true });
  expect(fact.parse("")).toEqual({ present: false, up: false });
});
