import { directorTable, directorTableFact } from "../../../provider/facts/director-table";
import { ipvsTable } from "../../../provider/facts/ipvs-table";
import { ipvsadmFixture } from "./fixtures";

describe("directorTable", () => {
  const save = ipvsadmFixture("ipvsadm-Sn.txt");
  const thresholds = ipvsadmFixture("ipvsadm-Ln-exact-thresholds.txt");
  const listing = directorTable(ipvsTable(save, thresholds));

  it("lists every service of the captured table, with every real server under its service", () => {
    expect(Object.keys(listing)).toHaveLength(save.split("\n").filter((l) => l.startsWith("-A ")).length);
    const realServers = Object.values(listing).flatMap((s) => Object.keys(s.realServers));
    expect(realServers).toHaveLength(save.split("\n").filter((l) => l.startsWith("-a ")).length);
    expect(listing["tcp:203.0.113.108:80"]).toEqual({
      scheduler: "wlc",
      schedulerFlags: [],
      onePacket: false,
      realServers: {
        "198.51.100.131:80": { forwarding: "nat", weight: 3, upperThreshold: 100, lowerThreshold: 10 },
        "198.51.100.132:8080": { forwarding: "nat", weight: 1, upperThreshold: 200, lowerThreshold: 20 },
      },
    });
  });

  it("keeps persistence, flags, one-packet, tunnels, IPv6 and fwmark services in the operator's words", () => {
    expect(listing["tcp:[2001:db8:100::101]:443"]).toMatchObject({
      scheduler: "sh",
      schedulerFlags: ["sh-port"],
      persistence: { timeoutSeconds: 300, netmask: "64" },
      realServers: { "[2001:db8:100::11]:443": { forwarding: "dr", weight: 1 } },
    });
    expect(listing["udp:203.0.113.105:53"]).toBeDefined();
    expect(listing["udp:203.0.113.106:5060"].onePacket).toBe(true);
    expect(listing["tcp:203.0.113.109:80"].realServers["198.51.100.133:80"]).toMatchObject({
      forwarding: "tun",
      tunnel: { type: "gue", port: 6080, checksum: "nocsum" },
    });
    expect(Object.keys(listing["fwm:5"].realServers)).toEqual(["198.51.100.131:0", "198.51.100.132:0"]);
  });

  it("prints alike whatever order the kernel listed entries in", () => {
    const reversed = save.split("\n").reverse().join("\n");
    const again = directorTable(ipvsTable(reversed, thresholds));
    expect(JSON.stringify(again)).toBe(JSON.stringify(listing));
  });

  it("is read with the table's one-round-trip command", () => {
    const fact = directorTableFact();
    expect(fact.command).toContain("ipvsadm -Sn");
    expect(fact.parse(`${save}--- lvs-pulumi thresholds ---\n${thresholds}`)).toEqual(listing);
  });
});
