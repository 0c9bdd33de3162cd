import { readDestinationLine, readServiceLine } from "../model/ipvsadm";
import { destinationKey, IpvsTable, serviceKey } from "../model/ipvs";

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
        const service = readServiceLine(tokens.slice(1));
        table.services[serviceKey(service.id)] = service;
      } else if (tokens[0] === "-a") {
        const dest = readDestinationLine(tokens.slice(1));
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
