import {
  DESTINATION_OPTIONS,
  FORWARDING_OPTIONS,
  FWMARK_OPTION,
  INET6_OPTION,
  PROTOCOL_OPTIONS,
  SERVICE_OPTIONS,
  TUNNEL_CHECKSUM_OPTIONS,
  wordOf,
} from "../model/ipvsadm";
import { parseAddressPort } from "./address-port";
import { destinationKey, IpvsDestination, IpvsService, IpvsTable, ServiceId, serviceKey, Tunnel } from "../model/ipvs";

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
  const protocol = wordOf(PROTOCOL_OPTIONS, option);
  if (protocol) return { id: { protocol, ...parseAddressPort(value) }, rest };
  if (option === FWMARK_OPTION) {
    const inet6 = rest[0] === INET6_OPTION;
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
    const word = wordOf(SERVICE_OPTIONS, option);
    if (word === "scheduler") service.scheduler = value();
    else if (word === "flags") service.flags = value().split(",").sort();
    else if (word === "persistence") service.persistence = { timeoutSeconds: Number(value()) };
    else if (word === "netmask") netmask = value();
    else if (word === "onePacket") service.onePacket = true;
    else throw new Error(`unknown service option ${option}`);
  }
  if (service.persistence && netmask !== undefined) service.persistence.netmask = netmask;
  return service;
}

function parseDestinationLine(tokens: string[]): IpvsDestination {
  const { id, rest } = takeServiceId(tokens);
  if (rest[0] !== DESTINATION_OPTIONS.address) throw new Error(`expected ${DESTINATION_OPTIONS.address}`);
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
    const forwarding = wordOf(FORWARDING_OPTIONS, option);
    const checksum = wordOf(TUNNEL_CHECKSUM_OPTIONS, option);
    const word = wordOf(DESTINATION_OPTIONS, option);
    if (forwarding) dest.forwarding = forwarding;
    else if (checksum) dest.tunnel = { type: "ipip", ...dest.tunnel, checksum };
    else if (word === "weight") dest.weight = Number(value());
    else if (word === "upperThreshold") dest.upperThreshold = Number(value());
    else if (word === "lowerThreshold") dest.lowerThreshold = Number(value());
    else if (word === "tunnelType") dest.tunnel = { ...dest.tunnel, type: value() as Tunnel["type"] };
    else if (word === "tunnelPort") dest.tunnel = { type: "ipip", ...dest.tunnel, port: Number(value()) };
    else throw new Error(`unknown real server option ${option}`);
  }
  // ipip is the kernel's default tunnel, whether or not the line names it.
  if (dest.forwarding === "tun" && !dest.tunnel) dest.tunnel = { type: "ipip" };
  return dest;
}
