import { Fact } from "./fact";
import { parseConnectionCounts, parseThresholds, ConnectionCounts } from "./ipvsList";
import { IpvsTable } from "./ipvsModel";
import { parseIpvsSave } from "./ipvsSave";

export const IPVS_SAVE_COMMAND = "ipvsadm -Sn";
export const IPVS_THRESHOLDS_COMMAND = "ipvsadm -Ln --exact --thresholds";

/** Merges `ipvsadm -Sn` with the thresholds that only `ipvsadm -Ln --exact --thresholds` prints. */
export function ipvsTable(saveStdout: string, thresholdsStdout: string): IpvsTable {
  const table = parseIpvsSave(saveStdout);
  const thresholds = parseThresholds(thresholdsStdout);
  for (const [key, dest] of Object.entries(table.destinations)) {
    Object.assign(dest, thresholds[key]);
  }
  return table;
}

/** Both listings in one round trip, split by a marker line. */
const MARKER = "--- lvs-pulumi thresholds ---";

export function ipvsTableFact(): Fact<IpvsTable> {
  return {
    command: `${IPVS_SAVE_COMMAND} && echo '${MARKER}' && ${IPVS_THRESHOLDS_COMMAND}`,
    parse(stdout) {
      const at = stdout.indexOf(MARKER);
      if (at < 0) throw new Error(`ipvs table: marker missing in output ${JSON.stringify(stdout.slice(0, 200))}`);
      return ipvsTable(stdout.slice(0, at), stdout.slice(at + MARKER.length));
    },
  };
}

export function connectionCountsFact(): Fact<Record<string, ConnectionCounts>> {
  return { command: "ipvsadm -Ln --exact", parse: parseConnectionCounts };
}
