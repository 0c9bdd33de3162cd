import { parseAddressPort } from "../model/address-port";
import { destinationKey, ServiceId, serviceKey } from "../model/ipvs";

/** One real server row of an `ipvsadm -Ln` listing, its columns named by the header. */
export interface ListedDestination {
  serviceKey: string;
  destinationKey: string;
  columns: Record<string, string>;
}

const LIST_PROTOCOLS: Record<string, "tcp" | "udp" | "sctp"> = { TCP: "tcp", UDP: "udp", SCTP: "sctp" };

/**
 * Parses any `ipvsadm -Ln [--exact] [--thresholds|--tun-info|...]` listing. The real server column names are on the
 * "  -> RemoteAddress:Port" header line, except with --thresholds where they follow "Prot LocalAddress:Port".
 */
export function parseIpvsList(stdout: string): ListedDestination[] {
  const lines = stdout.split("\n");
  const serviceHeader = lines.find((line) => line.startsWith("Prot LocalAddress:Port")) ?? "";
  const destHeader = lines.find((line) => line.trim().startsWith("-> RemoteAddress:Port")) ?? "";
  const destColumns = destHeader.trim().split(/\s+/).slice(2);
  const columns = destColumns.length > 0 ? destColumns : serviceHeader.trim().split(/\s+/).slice(2);
  const rows: ListedDestination[] = [];
  let service: ServiceId | undefined;
  for (const line of lines) {
    const tokens = line.trim().split(/\s+/);
    if (line.startsWith("Prot ") || line.startsWith("IP Virtual Server") || tokens[1] === "RemoteAddress:Port")
      continue;
    if (tokens[0] === "FWM") {
      service = { fwmark: Number(tokens[1]), family: tokens[2] === "IPv6" ? "inet6" : "inet" };
    } else if (tokens[0] in LIST_PROTOCOLS) {
      service = { protocol: LIST_PROTOCOLS[tokens[0]], ...parseAddressPort(tokens[1]) };
    } else if (tokens[0] === "->" && service) {
      const { address, port } = parseAddressPort(tokens[1]);
      rows.push({
        serviceKey: serviceKey(service),
        destinationKey: destinationKey(service, address, port),
        columns: Object.fromEntries(columns.map((name, i) => [name, tokens[i + 2] ?? ""])),
      });
    }
  }
  return rows;
}

export interface Thresholds {
  upperThreshold: number;
  lowerThreshold: number;
}

/** From `ipvsadm -Ln --exact --thresholds`: the only listing that shows -x/-y. */
export function parseThresholds(stdout: string): Record<string, Thresholds> {
  return Object.fromEntries(
    parseIpvsList(stdout).map((row) => [
      row.destinationKey,
      { upperThreshold: Number(row.columns.Uthreshold), lowerThreshold: Number(row.columns.Lthreshold) },
    ]),
  );
}

export interface ConnectionCounts {
  activeConn: number;
  inactConn: number;
}

/** From `ipvsadm -Ln --exact`: per real server connection counts, to wait for a drain. */
export function parseConnectionCounts(stdout: string): Record<string, ConnectionCounts> {
  return Object.fromEntries(
    parseIpvsList(stdout).map((row) => [
      row.destinationKey,
      { activeConn: Number(row.columns.ActiveConn), inactConn: Number(row.columns.InActConn) },
    ]),
  );
}
