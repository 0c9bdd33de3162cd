// The benchmark's topology: one HA pair (dir1, dir2) and 20 DR services on one VIP, ports 10001..10020, each with
// the same `perService` real servers (at most 50). Real servers are director-side entries only (no `host`): IPVS
// accepts any RIP, so the figures measure the directors' work, not how many machines the lab has.
import { serviceKey } from "../../provider/model/ipvs";
import { parseIpvsSave } from "../../provider/facts/ipvs-save";

export const SERVICES = 20;
export const MAX_PER_SERVICE = 50;
export const VIP = "198.51.100.40";
export const DIRECTORS = ["dir1", "dir2"] as const;
const FIRST_PORT = 10001;

export interface BenchRealServer {
  name: string;
  /** Lab-only RIPs in 198.51.100.192/26, which is no lab subnet. */
  address: string;
  weight: number;
}

export interface BenchService {
  name: string;
  port: number;
  realServers: BenchRealServer[];
}

/** 20 services x `perService` real servers; every tenth real server (overall) gets weight 2 when `changed`. */
export function benchServices(perService: number, changed: boolean): BenchService[] {
  if (!Number.isInteger(perService) || perService < 1 || perService > MAX_PER_SERVICE) {
    throw new Error(`real servers per service must be 1..${MAX_PER_SERVICE}, got ${perService}`);
  }
  return Array.from({ length: SERVICES }, (_, s) => ({
    name: `svc${s + 1}`,
    port: FIRST_PORT + s,
    realServers: Array.from({ length: perService }, (_, r) => ({
      name: `rs${r + 1}`,
      address: `198.51.100.${193 + r}`,
      weight: changed && (s * perService + r) % 10 === 0 ? 2 : 1,
    })),
  }));
}

/** The stack's `lvs:topology` for these services, as a user would write it in Pulumi.<stack>.yaml. */
export function topologyConfig(services: BenchService[]): Record<string, unknown> {
  return {
    subnets: ["198.51.100.0/26"],
    directors: { dir1: { connection: { host: "198.51.100.11" } }, dir2: { connection: { host: "198.51.100.12" } } },
    haPairs: {
      pair: {
        primary: { director: "dir1", interface: "eth0" },
        backup: { director: "dir2", interface: "eth0" },
        virtualRouterId: 61,
      },
    },
    services: Object.fromEntries(
      services.map((service) => [
        service.name,
        {
          directors: [...DIRECTORS],
          protocol: "tcp",
          address: VIP,
          port: service.port,
          scheduler: "wrr",
          realServers: Object.fromEntries(
            service.realServers.map((rs) => [rs.name, { address: rs.address, weight: rs.weight, forwarding: "dr" }]),
          ),
        },
      ]),
    ),
  };
}

/** The table a director should hold, one sorted line per entry: `tcp:VIP:PORT wrr` and `tcp:VIP:PORT RIP:PORT w`. */
export function desiredTable(services: BenchService[]): string[] {
  return services
    .flatMap((service) => {
      const key = `tcp:${VIP}:${service.port}`;
      return [`${key} wrr`, ...service.realServers.map((rs) => `${key} ${rs.address}:${service.port} dr ${rs.weight}`)];
    })
    .sort();
}

/** The same lines from a director's `ipvsadm -Sn` output. */
export function liveTable(ipvsadmSave: string): string[] {
  const table = parseIpvsSave(ipvsadmSave);
  const services = Object.entries(table.services).map(([key, service]) => `${key} ${service.scheduler}`);
  const destinations = Object.values(table.destinations).map(
    (d) => `${serviceKey(d.service)} ${d.address}:${d.port} ${d.forwarding} ${d.weight}`,
  );
  return [...services, ...destinations].sort();
}
