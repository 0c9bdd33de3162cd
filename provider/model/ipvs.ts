import { Family, hostPort } from "./ip";
import { Protocol } from "./vocabulary";

/** A virtual service's identity: protocol + VIP + port, or a firewall mark of one family. */
export type ServiceId = { protocol: Protocol; address: string; port: number } | { fwmark: number; family: Family };

/** How the kernel forwards to a real server; fullnat is nat plus an SNAT rule outside IPVS. */
export type KernelForwarding = "dr" | "nat" | "tun";

export interface Tunnel {
  type: "ipip" | "gue" | "gre";
  port?: number;
  checksum?: "nocsum" | "csum" | "remcsum";
}

export interface IpvsService {
  id: ServiceId;
  scheduler: string;
  /** `-b` flags, sorted. */
  flags: string[];
  /** netmask is omitted when it is the host mask (ipvsadm prints no -M then). */
  persistence?: { timeoutSeconds: number; netmask?: string };
  onePacket: boolean;
}

/** Configuration only; counters live apart so that comparing entries never sees traffic. */
export interface IpvsDestination {
  service: ServiceId;
  address: string;
  /** 0 for fwmark services. */
  port: number;
  forwarding: KernelForwarding;
  weight: number;
  upperThreshold: number;
  lowerThreshold: number;
  tunnel?: Tunnel;
}

/** Keyed like Seesaw: services by serviceKey, destinations by destinationKey. */
export interface IpvsTable {
  services: Record<string, IpvsService>;
  destinations: Record<string, IpvsDestination>;
}

export function isFwmarkService(id: ServiceId): id is { fwmark: number; family: Family } {
  return "fwmark" in id;
}

/** `tcp:203.0.113.101:80`, `tcp:[2001:db8::1]:80`, `fwm:5`, `fwm6:5`. */
export function serviceKey(id: ServiceId): string {
  if (isFwmarkService(id)) return `${id.family === "inet6" ? "fwm6" : "fwm"}:${id.fwmark}`;
  return `${id.protocol}:${hostPort(id.address, id.port)}`;
}

/** `<serviceKey>/<rip>:<port>`. */
export function destinationKey(service: ServiceId, address: string, port: number): string {
  return `${serviceKey(service)}/${hostPort(address, port)}`;
}
