import { parseAddressPort } from "./address-port";
import { hostPort } from "./ip";
import { IpvsDestination, IpvsService, isFwmarkService, KernelForwarding, ServiceId, Tunnel } from "./ipvs";
import { Protocol } from "./vocabulary";

// ipvsadm's options, written once for both directions: commands and `ipvsadm -R` lines are built from these tables,
// and the lines of `ipvsadm -Sn` are read back with them, each option's writer beside its reader.

export const PROTOCOL_OPTIONS = { tcp: "-t", udp: "-u", sctp: "-q" } as const satisfies Record<Protocol, string>;
export const FORWARDING_OPTIONS = { dr: "-g", nat: "-m", tun: "-i" } as const satisfies Record<
  KernelForwarding,
  string
>;
export const TUNNEL_CHECKSUM_OPTIONS = {
  nocsum: "--tun-nocsum",
  csum: "--tun-csum",
  remcsum: "--tun-remcsum",
} as const satisfies Record<NonNullable<Tunnel["checksum"]>, string>;
export const FWMARK_OPTION = "-f";
/** After a fwmark: the mark is an IPv6 service's. */
export const INET6_OPTION = "-6";
export const SERVICE_OPTIONS = {
  scheduler: "-s",
  flags: "-b",
  persistence: "-p",
  netmask: "-M",
  onePacket: "-o",
} as const;
export const DESTINATION_OPTIONS = {
  address: "-r",
  weight: "-w",
  upperThreshold: "-x",
  lowerThreshold: "-y",
  tunnelType: "--tun-type",
  tunnelPort: "--tun-port",
} as const;

/** The word `option` stands for in `table`; undefined when it is none of its options. */
export function wordOf<T extends Record<string, string>>(table: T, option: string): keyof T | undefined {
  return (Object.keys(table) as (keyof T)[]).find((word) => table[word] === option);
}

export function serviceArgs(id: ServiceId): string[] {
  if (isFwmarkService(id)) {
    return [FWMARK_OPTION, String(id.fwmark), ...(id.family === "inet6" ? [INET6_OPTION] : [])];
  }
  return [PROTOCOL_OPTIONS[id.protocol], hostPort(id.address, id.port)];
}

export function serviceOptions(service: IpvsService): string[] {
  const o = SERVICE_OPTIONS;
  const args: string[] = [o.scheduler, service.scheduler];
  if (service.flags.length > 0) args.push(o.flags, service.flags.join(","));
  if (service.persistence) {
    args.push(o.persistence, String(service.persistence.timeoutSeconds));
    if (service.persistence.netmask !== undefined) args.push(o.netmask, service.persistence.netmask);
  }
  if (service.onePacket) args.push(o.onePacket);
  return args;
}

export function destinationArgs(dest: IpvsDestination): string[] {
  return [...serviceArgs(dest.service), DESTINATION_OPTIONS.address, hostPort(dest.address, dest.port)];
}

export function destinationOptions(dest: IpvsDestination): string[] {
  const o = DESTINATION_OPTIONS;
  const args: string[] = [FORWARDING_OPTIONS[dest.forwarding], o.weight, String(dest.weight)];
  if (dest.tunnel && dest.tunnel.type !== "ipip") {
    args.push(o.tunnelType, dest.tunnel.type);
    if (dest.tunnel.port !== undefined) args.push(o.tunnelPort, String(dest.tunnel.port));
    if (dest.tunnel.checksum !== undefined) args.push(TUNNEL_CHECKSUM_OPTIONS[dest.tunnel.checksum]);
  }
  // -x/-y are always sent so that an edit back to 0 ("no threshold") takes effect.
  args.push(o.upperThreshold, String(dest.upperThreshold), o.lowerThreshold, String(dest.lowerThreshold));
  return args;
}

/** Reads the service identity (-t/-u/-q ADDR:PORT or -f MARK [-6]) and returns the remaining options. */
function readServiceArgs(tokens: string[]): { id: ServiceId; rest: string[] } {
  const [option, value, ...rest] = tokens;
  const protocol = wordOf(PROTOCOL_OPTIONS, option);
  if (protocol) return { id: { protocol, ...parseAddressPort(value) }, rest };
  if (option === FWMARK_OPTION) {
    const inet6 = rest[0] === INET6_OPTION;
    return { id: { fwmark: Number(value), family: inet6 ? "inet6" : "inet" }, rest: inet6 ? rest.slice(1) : rest };
  }
  throw new Error(`expected a service (-t/-u/-q/-f), got ${option}`);
}

/** An `-A` line of `ipvsadm -Sn` after the verb: the reverse of serviceCommand. */
export function readServiceLine(tokens: string[]): IpvsService {
  const { id, rest } = readServiceArgs(tokens);
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

/** An `-a` line of `ipvsadm -Sn` after the verb: the reverse of destinationCommand. */
export function readDestinationLine(tokens: string[]): IpvsDestination {
  const { id, rest } = readServiceArgs(tokens);
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

/**
 * An ipvsadm service or destination command as data: its argv after `ipvsadm`. It is written out only at the last
 * step: quoted for a shell, or as an `ipvsadm -R` line (restoreLine), so nothing is ever quoted and read back.
 */
export interface IpvsadmCommand {
  ipvsadm: [IpvsadmVerb, ...string[]];
}

export type IpvsadmVerb = "-A" | "-E" | "-D" | "-a" | "-e" | "-d";

export function serviceCommand(verb: "-A" | "-E", service: IpvsService): IpvsadmCommand {
  return { ipvsadm: [verb, ...serviceArgs(service.id), ...serviceOptions(service)] };
}

export function serviceRemoval(id: ServiceId): IpvsadmCommand {
  return { ipvsadm: ["-D", ...serviceArgs(id)] };
}

export function destinationCommand(verb: "-a" | "-e", dest: IpvsDestination): IpvsadmCommand {
  return { ipvsadm: [verb, ...destinationArgs(dest), ...destinationOptions(dest)] };
}

export function destinationRemoval(dest: IpvsDestination): IpvsadmCommand {
  return { ipvsadm: ["-d", ...destinationArgs(dest)] };
}

/** The command as an `ipvsadm -R` line, which it splits on blanks (no shell): the model's values hold none. */
export function restoreLine(command: IpvsadmCommand): string {
  return command.ipvsadm.join(" ");
}
