import { parseIpvsSave } from "../../../provider/facts/ipvs-save";
import { ipvsadmFixture } from "./fixtures";

describe("parseIpvsSave", () => {
  const table = parseIpvsSave(ipvsadmFixture("ipvsadm-Sn.txt"));

  it("keys every service like Seesaw", () => {
    expect(Object.keys(table.services)).toEqual([
      "tcp:203.0.113.101:80",
      "tcp:203.0.113.102:80",
      "tcp:203.0.113.103:80",
      "tcp:203.0.113.104:80",
      "tcp:203.0.113.107:443",
      "tcp:203.0.113.108:80",
      "tcp:203.0.113.109:80",
      "udp:203.0.113.105:53",
      "udp:203.0.113.106:5060",
      "tcp:[2001:db8:100::100]:80",
      "tcp:[2001:db8:100::101]:443",
      "fwm:5",
    ]);
    expect(Object.keys(table.destinations)).toHaveLength(22);
  });

  it("reads scheduler flags, persistence and netmasks", () => {
    expect(table.services["tcp:203.0.113.103:80"]).toEqual({
      id: { protocol: "tcp", address: "203.0.113.103", port: 80 },
      scheduler: "sh",
      flags: ["sh-fallback", "sh-port"],
      onePacket: false,
    });
    expect(table.services["tcp:203.0.113.107:443"].persistence).toEqual({
      timeoutSeconds: 60,
      netmask: "255.255.255.0",
    });
    expect(table.services["tcp:[2001:db8:100::101]:443"]).toMatchObject({
      flags: ["sh-port"],
      persistence: { timeoutSeconds: 300, netmask: "64" },
    });
    expect(table.services["udp:203.0.113.106:5060"].onePacket).toBe(true);
    expect(table.services["fwm:5"]).toEqual({
      id: { fwmark: 5, family: "inet" },
      scheduler: "rr",
      flags: [],
      onePacket: false,
    });
  });

  it("reads real servers with forwarding, weight and tunnel options", () => {
    expect(table.destinations["tcp:203.0.113.102:80/198.51.100.132:80"]).toEqual({
      service: { protocol: "tcp", address: "203.0.113.102", port: 80 },
      address: "198.51.100.132",
      port: 80,
      forwarding: "nat",
      weight: 2,
      upperThreshold: 0,
      lowerThreshold: 0,
    });
    expect(table.destinations["tcp:203.0.113.109:80/198.51.100.132:80"]).toMatchObject({
      forwarding: "tun",
      tunnel: { type: "ipip" },
    });
    expect(table.destinations["tcp:203.0.113.109:80/198.51.100.133:80"].tunnel).toEqual({
      type: "gue",
      port: 6080,
      checksum: "nocsum",
    });
    expect(table.destinations["tcp:203.0.113.109:80/198.51.100.134:80"].weight).toBe(0);
    expect(table.destinations["udp:203.0.113.105:53/198.51.100.132:5353"].port).toBe(5353);
    expect(table.destinations["tcp:[2001:db8:100::100]:80/[2001:db8:100::12]:80"].forwarding).toBe("dr");
    expect(table.destinations["fwm:5/198.51.100.131:0"]).toMatchObject({
      service: { fwmark: 5, family: "inet" },
      port: 0,
    });
  });

  it("reads IPv6 fwmark services, sctp and thresholds in hand-written rules", () => {
    const parsed = parseIpvsSave(
      "-A -f 7 -6 -s mh -b mh-port\n-a -f 7 -6 -r [2001:db8::11]:0 -g -w 1\n-A -q 192.0.2.1:3868 -s rr\n" +
        "-a -q 192.0.2.1:3868 -r 198.51.100.5:3868 -m -w 4 -x 100 -y 10\n",
    );
    expect(parsed.services["fwm6:7"].id).toEqual({ fwmark: 7, family: "inet6" });
    expect(parsed.destinations["fwm6:7/[2001:db8::11]:0"].address).toBe("2001:db8::11");
    expect(parsed.destinations["sctp:192.0.2.1:3868/198.51.100.5:3868"]).toMatchObject({
      upperThreshold: 100,
      lowerThreshold: 10,
    });
  });

  it("returns an empty table for an empty listing", () => {
    expect(parseIpvsSave("")).toEqual({ services: {}, destinations: {} });
  });

  it("rejects options it does not know, naming the line", () => {
    expect(() => parseIpvsSave("-A -t 192.0.2.1:80 -s rr --pe sip\n")).toThrow(
      'unknown service option --pe in line "-A -t 192.0.2.1:80 -s rr --pe sip"',
    );
  });
});
