import { Protocol } from "../model/vocabulary";
import { parseAddressPort } from "./address-port";
import {
  destinationKey,
  IpvsDestination,
  IpvsService,
  IpvsTable,
  KernelForwarding,
  ServiceId,
  serviceKey,
  Tunnel,
} from "../model/ipvs";

const PROTOCOL_OPTIONS: Record<string, Protocol> = { "-t": "tcp", "-u": "udp", "-q": "sctp" };
const FORWARDING_OPTIONS: Record<string, KernelForwarding> = { "-g": "dr", "-m": "nat", "-i": "tun" };
const TUNNEL_CHECKSUMS: Record<string, Tunnel["checksum"]> = {
  "--tun-nocsum": "nocsum",
  "--tun-csum": "csum",
  "--tun-remcsum": "remcsum",
};

/**
 * Parses `ipvsadm -Sn` (one -A line per service, one -a line per real server). It does not print thresholds;
 * lines that do carry -x/-y (hand-written rules) are honoured.
 */
export function parseIpvsSave(stdout: string): IpvsTable {
  const table: IpvsTable = { services: {}, destinations: {} };
  for (const line of stdout.split("\n")) {
    const tokens = line.trim().split(/\s+/).filter(Boolean);
    if (tokens.length === 0) continue;
    try {
      if (tokens[0] === "-A") {
        const service = parseServiceLine(tokens.slice(1));
        table.services[serviceKey(service.id)] = service;
      } else if (tokens[0] === "-a") {
        const dest = parseDestinationLine(tokens.slice(1));
        table.destinations[destinationKey(dest.service, dest.address, dest.port)] = dest;
      } else {
        throw new Error(`unknown command ${tokens[0]}`);
      }
    } catch (error) {
      throw new Error(`ipvsadm -Sn: ${(error as Error).message} in line ${JSON.stringify(line)}`);
    }
  }
  return table;
}

/** Reads the service identity (-t/-u/-q ADDR:PORT or -f MARK [-6]) and returns the remaining options. */
function takeServiceId(tokens: string[]): { id: ServiceId; rest: string[] } {
  const [option, value, ...rest] = tokens;
  if (option in PROTOCOL_OPTIONS) {
    return { id: { protocol: PROTOCOL_OPTIONS[option], ...parseAddressPort(value) }, rest };
  }
  if (option === "-f") {
    const inet6 = rest[0] === "-6";
    return { id: { fwmark: Number(value), family: inet6 ? "inet6" : "inet" }, rest: inet6 ? rest.slice(1) : rest };
  }
  throw new Error(`expected a service (-t/-u/-q/-f), got ${option}`);
}

function parseServiceLine(tokens: string[]): IpvsService {
  const { id, rest } = takeServiceId(tokens);
  const service: IpvsService = { id, scheduler: "wlc", flags: [], onePacket: false };
  let netmask: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const option = rest[i];
    const value = () => rest[++i] ?? "";
    if (option === "-s") service.scheduler = value();
    else if (option === "-b") service.flags = value().split(",").sort();
    else if (option === "-p") service.persistence = { timeoutSeconds: Number(value()) };
    else if (option === "-M") netmask = value();
    else if (option === "-o") service.onePacket = true;
    else throw new Error(`unknown service option ${option}`);
  }
  if (service.persistence && netmask !== undefined) service.persistence.netmask = netmask;
  return service;
}

function parseDestinationLine(tokens: string[]): IpvsDestination {
  const { id, rest } = takeServiceId(tokens);
  if (rest[0] !== "-r") throw new Error("expected -r");
  const dest: IpvsDestination = {
    service: id,
    ...parseAddressPort(rest[1]),
    forwarding: "dr",
    weight: 1,
    upperThreshold: 0,
    lowerThreshold: 0,
  };
  for (let i = 2; i < rest.length; i++) {
    const option = rest[i];
    const value = () => rest[++i] ?? "";
    if (option in FORWARDING_OPTIONS) dest.forwarding = FORWARDING_OPTIONS[option];
    else if (option === "-w") dest.weight = Number(value());
    else if (option === "-x") dest.upperThreshold = Number(value());
    else if (option === "-y") dest.lowerThreshold = Number(value());
    else if (option === "--tun-type") dest.tunnel = { ...dest.tunnel, type: value() as Tunnel["type"] };
    else if (option === "--tun-port") dest.tunnel = { type: "ipip", ...dest.tunnel, port: Number(value()) };
    else if (option in TUNNEL_CHECKSUMS)
      dest.tunnel = { type: "ipip", ...dest.tunnel, checksum: TUNNEL_CHECKSUMS[option] };
    else throw new Error(`unknown real server option ${option}`);
  }
  // ipip is the kernel's default tunnel, whether or not the line names it.
  if (dest.forwarding === "tun" && !dest.tunnel) dest.tunnel = { type: "ipip" };
  return dest;
}
