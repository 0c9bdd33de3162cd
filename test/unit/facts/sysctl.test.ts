import { parseSysctlLines, sysctlFact } from "../../../provider/facts/sysctl";

describe("sysctl", () => {
  it("reads the listed keys, skipping unknown ones", () => {
    const fact = sysctlFact(["net.ipv4.ip_forward", "net.ipv4.vs.conntrack"]);
    expect(fact.command).toBe("sysctl -e net.ipv4.ip_forward net.ipv4.vs.conntrack");
    expect(fact.parse("net.ipv4.ip_forward = 1\n")).toEqual({ "net.ipv4.ip_forward": "1" });
  });
  it("quotes keys", () => {
    expect(sysctlFact(["net.ipv4.conf.a b.rp_filter"]).command).toBe("sysctl -e 'net.ipv4.conf.a b.rp_filter'");
  });
  it("parses sysctl -a style lines, values with spaces and equals signs intact", () => {
    expect(parseSysctlLines("net.ipv4.ip_local_port_range = 32768\t60999\nkernel.x = a = b\nnoise\n")).toEqual({
      "net.ipv4.ip_local_port_range": "32768\t60999",
      "kernel.x": "a = b",
    });
  });
});
