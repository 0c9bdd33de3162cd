import { ipvsTimeoutsFact } from "../../../provider/facts/ipvs-timeouts";

test("ipvsadm -Ln --timeout", () => {
  const fact = ipvsTimeoutsFact();
  expect(fact.parse("Timeout (tcp tcpfin udp): 900 120 300\n")).toEqual({ tcp: 900, tcpFin: 120, udp: 300 });
  expect(() => fact.parse("Memory allocation problem\n")).toThrow("unexpected output");
});
