import { Fact } from "./fact";
import { parseConnectionCounts, parseThresholds, ConnectionCounts } from "./ipvs-list";
import { IpvsTable } from "../model/ipvs";
import { parseIpvsSave } from "./ipvs-save";

export const IPVS_SAVE_COMMAND = "ipvsadm -Sn";
export const IPVS_THRESHOLDS_COMMAND = "ipvsadm -Ln --exact --thresholds";

/** Merges `ipvsadm -Sn` with the thresholds that only `ipvsadm -Ln --exact --thresholds` prints. */
export function ipvsTable(saveStdout: string, thresholdsStdout: string): IpvsTable {
  return withThresholds(parseIpvsSave(saveStdout), parseThresholds(thresholdsStdout));
}

/** `table` with each real server's thresholds set from `thresholds` (in place). */
export function withThresholds(table: IpvsTable, thresholds: ReturnType<typeof parseThresholds>): IpvsTable {
  for (const [key, dest] of Object.entries(table.destinations)) {
    Object.assign(dest, thresholds[key]);
  }
  return table;
}

/** Both listings in one round trip, split by a marker line. */
const THRESHOLDS_SEPARATOR = "--- lvs-pulumi thresholds ---";

export function ipvsTableFact(): Fact<IpvsTable> {
  return {
    command: `${IPVS_SAVE_COMMAND} && echo '${THRESHOLDS_SEPARATOR}' && ${IPVS_THRESHOLDS_COMMAND}`,
    parse(stdout) {
      const at = stdout.indexOf(THRESHOLDS_SEPARATOR);
      if (at < 0) throw new Error(`ipvs table: marker missing in output ${JSON.stringify(stdout.slice(0, 200))}`);
      return ipvsTable(stdout.slice(0, at), stdout.slice(at + THRESHOLDS_SEPARATOR.length));
    },
  };
}

/**
 * Services and real servers as `ipvsadm -Sn` alone lists them: what exists and how, but with every threshold 0 (one
 * program instead of two). Enough for plans that add or remove; one that compares an existing real server first
 * completes it with `withThresholds` (real-server-director.ts).
 */
export function ipvsEntriesFact(): Fact<IpvsTable> {
  return { command: IPVS_SAVE_COMMAND, parse: parseIpvsSave };
}

/** The thresholds of every real server, to complete an ipvsEntriesFact table (ipvsTable merges them the same way). */
export function ipvsThresholdsFact(): Fact<ReturnType<typeof parseThresholds>> {
  return { command: IPVS_THRESHOLDS_COMMAND, parse: parseThresholds };
}

export function connectionCountsFact(): Fact<Record<string, ConnectionCounts>> {
  return { command: "ipvsadm -Ln --exact", parse: parseConnectionCounts };
}
