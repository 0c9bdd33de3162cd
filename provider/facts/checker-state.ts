import { canonicalIp, ipFamily } from "../model/ip";
import { Protocol } from "../model/vocabulary";
import { Fact } from "./fact";
import { destinationKey, ServiceId } from "../model/ipvs";
import { quote } from "../model/shell";
import { CHECKER_PID_FILE } from "../model/host-paths";

/** What keepalived's checkers think of a real server: alive or not, the weight it gives the kernel, its configured one. */
export interface CheckedRealServer {
  alive: boolean;
  /** The effective weight (a dynamic misc check changes it). */
  weight: number;
  /** The weight in keepalived's loaded configuration (`initial weight`): tells whether a reload was applied. */
  configuredWeight: number;
}

const DUMP = "/tmp/keepalived_check.data";

/**
 * keepalived's checker state by destination key, from the dump it writes on SIGUSR1 (`keepalived --signum=DATA`).
 * Empty when the checker instance does not run. The dump is written while we wait: read once its size stopped growing.
 */
export function checkerStateFact(): Fact<Record<string, CheckedRealServer>> {
  const dump = quote(DUMP);
  return {
    command: [
      `if pid=$(cat ${CHECKER_PID_FILE} 2>/dev/null) && kill -0 "$pid" 2>/dev/null; then`,
      `  rm -f ${dump}; kill -s "$(keepalived --signum=DATA)" "$pid"; last=-1`,
      `  for i in $(seq 1 50); do size=$(stat -c %s ${dump} 2>/dev/null || echo -1)`,
      `    if [ "$size" -gt 0 ] && [ "$size" = "$last" ]; then break; fi; last=$size; sleep 0.1; done`,
      `  cat ${dump} 2>/dev/null || true`,
      "fi",
    ].join("\n"),
    parse: parseCheckerDump,
  };
}

const DUMP_PROTOCOLS: Record<string, Protocol> = { TCP: "tcp", UDP: "udp", SCTP: "sctp" };

/**
 * The "LVS Topology" of keepalived's checker dump: per virtual server (` VS VIP = a, VPORT = p` or ` VS FWMARK = n`,
 * then its `protocol` and `Address family` lines), its real servers (`RIP = a, RPORT = p, WEIGHT = w` ... `alive = 1`).
 */
export function parseCheckerDump(dump: string): Record<string, CheckedRealServer> {
  const state: Record<string, CheckedRealServer> = {};
  let vs: { vip?: string; port?: number; fwmark?: number; protocol?: Protocol; family?: "inet" | "inet6" } = {};
  let rs: { address: string; port: number; weight: number; configuredWeight: number } | undefined;
  const service = (): ServiceId | undefined => {
    if (vs.fwmark !== undefined) return { fwmark: vs.fwmark, family: vs.family ?? "inet" };
    if (vs.vip === undefined || vs.port === undefined || vs.protocol === undefined) return undefined;
    return { protocol: vs.protocol, address: vs.vip, port: vs.port };
  };
  for (const raw of dump.split("\n")) {
    const line = raw.trim();
    let match: RegExpMatchArray | null;
    if ((match = /^VS VIP = (\S+), VPORT = (\d+)$/.exec(line))) {
      vs = { vip: canonicalIp(match[1]), port: Number(match[2]) };
      rs = undefined;
    } else if ((match = /^VS FWMARK = (\d+)$/.exec(line))) {
      vs = { fwmark: Number(match[1]) };
      rs = undefined;
    } else if (rs === undefined && (match = /^protocol = (\w+)$/.exec(line))) {
      vs.protocol = DUMP_PROTOCOLS[match[1]];
    } else if (rs === undefined && (match = /^Address family = (inet6?)$/.exec(line))) {
      vs.family = match[1] as "inet" | "inet6";
    } else if ((match = /^RIP = (\S+), RPORT = (\d+), WEIGHT = (-?\d+) EFF WEIGHT = (-?\d+)/.exec(line))) {
      const weight = Number(match[4]);
      rs = ipFamily(match[1])
        ? { address: canonicalIp(match[1]), port: Number(match[2]), weight, configuredWeight: weight }
        : undefined;
    } else if (rs !== undefined && (match = /^initial weight = (-?\d+)$/.exec(line))) {
      rs.configuredWeight = Number(match[1]);
    } else if (rs !== undefined && (match = /^alive = (\d+)$/.exec(line))) {
      const id = service();
      const { weight, configuredWeight } = rs;
      if (id) state[destinationKey(id, rs.address, rs.port)] = { alive: match[1] !== "0", weight, configuredWeight };
    }
  }
  return state;
}
