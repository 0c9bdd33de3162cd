// The lab stack's host keys: the lab regenerates its hosts' keys (and the jump host's port) on every boot, so they
// cannot be pinned in Pulumi.lab.yaml. `npm run lab:up` writes them to .lab/hosts.json; with `lvs:labHostsFile`
// set, each connection in lvs:topology whose host is a lab host takes the port, user, pinned host key and jump host
// it does not set itself from that file. The private key never comes from the file (it is `lvs:sshPrivateKey`).
import * as fs from "fs";

interface LabConnection {
  host: string;
  port: number;
  user: string;
  hostKey: string;
  proxy?: LabConnection;
}

interface LabHostsFile {
  hosts: Record<string, { connection: LabConnection }>;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pinned(lab: LabConnection): Json {
  const { host, port, user, hostKey, proxy } = lab;
  return { host, port, user, hostKey, ...(proxy ? { proxy: pinned(proxy) } : {}) };
}

/** A copy of the raw `lvs:topology` with lab connection details filled in from `file` (an absolute path). */
export function withLabHosts(raw: unknown, file: string): unknown {
  const lab = JSON.parse(fs.readFileSync(file, "utf8")) as LabHostsFile;
  const byAddress = new Map(Object.values(lab.hosts).map((h) => [h.connection.host, pinned(h.connection)]));
  const fill = (connection: unknown): unknown => {
    if (!isObject(connection) || typeof connection.host !== "string") return connection;
    const known = byAddress.get(connection.host);
    return known ? { ...known, ...connection } : connection;
  };
  if (!isObject(raw)) return raw;
  const topology = structuredClone(raw);
  for (const director of Object.values(isObject(topology.directors) ? topology.directors : {})) {
    if (isObject(director)) director.connection = fill(director.connection);
  }
  for (const service of Object.values(isObject(topology.services) ? topology.services : {})) {
    if (!isObject(service) || !isObject(service.realServers)) continue;
    for (const server of Object.values(service.realServers)) {
      if (isObject(server) && server.host !== undefined) server.host = fill(server.host);
    }
  }
  return topology;
}
