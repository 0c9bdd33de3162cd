import { parseConnectionCounts, parseIpvsList, parseThresholds } from "../../../provider/facts/ipvs-list";
import { ipvsadmFixture } from "./fixtures";

describe("ipvsadm -Ln listings", () => {
  it("reads thresholds, which only --thresholds prints", () => {
    const thresholds = parseThresholds(ipvsadmFixture("ipvsadm-Ln-exact-thresholds.txt"));
    expect(thresholds["tcp:203.0.113.108:80/198.51.100.131:80"]).toEqual({ upperThreshold: 100, lowerThreshold: 10 });
    expect(thresholds["tcp:203.0.113.108:80/198.51.100.132:8080"]).toEqual({ upperThreshold: 200, lowerThreshold: 20 });
    expect(thresholds["fwm:5/198.51.100.132:0"]).toEqual({ upperThreshold: 0, lowerThreshold: 0 });
    expect(Object.keys(thresholds)).toHaveLength(22);
  });

  it("reads connection counts for draining", () => {
    const counts = parseConnectionCounts(ipvsadmFixture("ipvsadm-Ln-exact.txt"));
    expect(counts["tcp:[2001:db8:100::101]:443/[2001:db8:100::11]:443"]).toEqual({ activeConn: 0, inactConn: 0 });
    expect(Object.keys(counts)).toHaveLength(22);
    const busy = parseConnectionCounts(
      "IP Virtual Server version 1.2.1 (size=4096)\nProt LocalAddress:Port Scheduler Flags\n" +
        "  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n" +
        "TCP  203.0.113.101:80 wlc\n  -> 198.51.100.131:80            Route   0      12         3         \n" +
        "FWM  9 IPv6 rr\n  -> [2001:db8::11]:0             Route   1      1          0         \n",
    );
    expect(busy).toEqual({
      "tcp:203.0.113.101:80/198.51.100.131:80": { activeConn: 12, inactConn: 3 },
      "fwm6:9/[2001:db8::11]:0": { activeConn: 1, inactConn: 0 },
    });
  });

  it("names columns from the header, including --tun-info", () => {
    const rows = parseIpvsList(ipvsadmFixture("ipvsadm-Ln-exact-tun-info.txt"));
    expect(rows.find((row) => row.destinationKey === "tcp:203.0.113.109:80/198.51.100.133:80")).toEqual({
      serviceKey: "tcp:203.0.113.109:80",
      destinationKey: "tcp:203.0.113.109:80/198.51.100.133:80",
      columns: { Forward: "Tunnel", TunnelInfo: "gue:6080:-c", Weight: "1", ActiveConn: "0", InActConn: "0" },
    });
  });
});
