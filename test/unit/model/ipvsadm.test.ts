import { parseIpvsSave } from "../../../provider/facts/ipvs-save";
import { destinationKey, IpvsDestination, IpvsService, serviceKey } from "../../../provider/model/ipvs";
import {
  destinationCommand,
  destinationRemoval,
  PROTOCOL_OPTIONS,
  readDestinationLine,
  readServiceLine,
  restoreLine,
  serviceCommand,
  serviceRemoval,
  wordOf,
} from "../../../provider/model/ipvsadm";

const web: IpvsService = {
  id: { protocol: "tcp", address: "2001:db8::1", port: 443 },
  scheduler: "mh",
  flags: ["mh-fallback", "mh-port"],
  persistence: { timeoutSeconds: 300, netmask: "64" },
  onePacket: false,
};
const dns: IpvsService = { id: { fwmark: 7, family: "inet" }, scheduler: "rr", flags: [], onePacket: true };
const rip: IpvsDestination = {
  service: web.id,
  address: "2001:db8::21",
  port: 443,
  forwarding: "tun",
  weight: 3,
  upperThreshold: 100,
  lowerThreshold: 10,
  tunnel: { type: "gue", port: 6080, checksum: "remcsum" },
};

describe("ipvsadm commands as data", () => {
  test("a service's command holds its identity and every option, in ipvsadm's words", () => {
    expect(serviceCommand("-A", web).ipvsadm).toEqual([
      "-A",
      "-t",
      "[2001:db8::1]:443",
      "-s",
      "mh",
      "-b",
      "mh-fallback,mh-port",
      "-p",
      "300",
      "-M",
      "64",
    ]);
    expect(serviceCommand("-E", dns).ipvsadm).toEqual(["-E", "-f", "7", "-s", "rr", "-o"]);
    expect(serviceRemoval({ fwmark: 7, family: "inet6" }).ipvsadm).toEqual(["-D", "-f", "7", "-6"]);
  });

  test("a real server's command always carries its thresholds, so an edit back to 0 takes effect", () => {
    const plain = { ...rip, forwarding: "dr" as const, tunnel: undefined, upperThreshold: 0, lowerThreshold: 0 };
    expect(destinationCommand("-e", plain).ipvsadm).toEqual([
      "-e",
      "-t",
      "[2001:db8::1]:443",
      "-r",
      "[2001:db8::21]:443",
      "-g",
      "-w",
      "3",
      "-x",
      "0",
      "-y",
      "0",
    ]);
    expect(destinationRemoval(rip).ipvsadm).toEqual(["-d", "-t", "[2001:db8::1]:443", "-r", "[2001:db8::21]:443"]);
  });

  test("the -R line is the argv itself: nothing quoted, nothing read back", () => {
    expect(restoreLine(destinationCommand("-a", rip))).toBe(
      "-a -t [2001:db8::1]:443 -r [2001:db8::21]:443 -i -w 3 --tun-type gue --tun-port 6080 --tun-remcsum -x 100 -y 10",
    );
  });

  test("one table for both directions: what we write, ipvsadm -Sn syntax parses back to the same model", () => {
    const lines = [serviceCommand("-A", web), serviceCommand("-A", dns), destinationCommand("-a", rip)].map(
      restoreLine,
    );
    const table = parseIpvsSave(lines.join("\n"));
    expect(table.services[serviceKey(web.id)]).toEqual(web);
    expect(table.services[serviceKey(dns.id)]).toEqual(dns);
    expect(table.destinations[destinationKey(rip.service, rip.address, rip.port)]).toEqual(rip);
  });

  test("each writer has its reader beside it: a command's argv after the verb reads back to the entry", () => {
    const argv = (command: { ipvsadm: string[] }) => command.ipvsadm.slice(1);
    expect(readServiceLine(argv(serviceCommand("-A", web)))).toEqual(web);
    expect(readServiceLine(argv(serviceCommand("-A", dns)))).toEqual(dns);
    expect(readDestinationLine(argv(destinationCommand("-a", rip)))).toEqual(rip);
    expect(() => readDestinationLine(["-t", "[2001:db8::1]:443", "-r", "[2001:db8::21]:443", "-z"])).toThrow(
      "unknown real server option -z",
    );
  });

  test("wordOf reads an option back to its word; an unknown option is none", () => {
    expect(wordOf(PROTOCOL_OPTIONS, "-q")).toBe("sctp");
    expect(wordOf(PROTOCOL_OPTIONS, "-f")).toBeUndefined();
  });
});
