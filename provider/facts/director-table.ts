import { hostPort } from "../model/ip";
import { Fact } from "./fact";
import { IpvsTable, serviceKey, Tunnel } from "../model/ipvs";
import { ipvsTableFact } from "./ipvs-table";

export interface ListedRealServer {
  forwarding: string;
  weight: number;
  upperThreshold: number;
  lowerThreshold: number;
  tunnel?: Tunnel;
}

export interface ListedVirtualService {
  scheduler: string;
  schedulerFlags: string[];
  persistence?: { timeoutSeconds: number; netmask?: string };
  onePacket: boolean;
  /** By "RIP:port" (IPv6 in brackets). */
  realServers: Record<string, ListedRealServer>;
}

/** A director's kernel table as an operator reads it, by service key ("tcp:VIP:port", "fwm:5"). */
export type DirectorTable = Record<string, ListedVirtualService>;

/**
 * The configuration half of the table only: connection counters change with every packet and would make each refresh
 * (and `--expect-no-changes` drift checks) report a change that is none.
 */
export function directorTable(table: IpvsTable): DirectorTable {
  const listing: DirectorTable = {};
  for (const [key, service] of Object.entries(table.services).sort(([a], [b]) => a.localeCompare(b))) {
    listing[key] = {
      scheduler: service.scheduler,
      schedulerFlags: service.flags,
      ...(service.persistence ? { persistence: service.persistence } : {}),
      onePacket: service.onePacket,
      realServers: {},
    };
  }
  const destinations = Object.values(table.destinations).sort((a, b) =>
    hostPort(a.address, a.port).localeCompare(hostPort(b.address, b.port)),
  );
  for (const dest of destinations) {
    const service = listing[serviceKey(dest.service)];
    if (!service) continue;
    service.realServers[hostPort(dest.address, dest.port)] = {
      forwarding: dest.forwarding,
      weight: dest.weight,
      upperThreshold: dest.upperThreshold,
      lowerThreshold: dest.lowerThreshold,
      ...(dest.tunnel ? { tunnel: dest.tunnel } : {}),
    };
  }
  return listing;
}

export function directorTableFact(): Fact<DirectorTable> {
  const table = ipvsTableFact();
  return { command: table.command, parse: (stdout) => directorTable(table.parse(stdout)) };
}
