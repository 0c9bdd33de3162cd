// The stack configuration of a cluster (`lvs:topology`): the resource schemas of provider/schemas for every field,
// plus the rules only a whole topology can break. Every failure names the config key it is about.
import type * as pulumi from "@pulumi/pulumi";
import * as ipaddr from "ipaddr.js";
import { z } from "zod";
import { CheckFailure, validateInputs } from "../schemas/validate-inputs";
import { directorInputsSchema } from "../schemas/director";
import { floatingAddressSchema, haPairInputsSchema, haPairMemberFields } from "../schemas/ha-pair";
import { cidrFamily, canonicalIp } from "../model/ip";
import { realServerInputsSchema } from "../schemas/real-server";
import { serviceVipFields } from "../schemas/service-identity";
import { virtualServiceInputsSchema } from "../schemas/virtual-service";
import type { ConnectionArgs } from "../resources/connection";
import { ClusterTopology } from "./topology";

export const TOPOLOGY_KEY = "lvs:topology";

// Names become parts of resource names ("<cluster>-<service>-<server>").
const NAME = /^[a-z][a-z0-9-]{0,62}$/;
// Plain config is stored in clear text in the stack file.
const SECRET_FIELDS = ["password", "privateKey", "privateKeyPassword"] as const;

function nameField(what: string) {
  return z.string().regex(NAME, { error: `is not a valid ${what} name ([a-z][a-z0-9-]*)` });
}

function strict<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === "unrecognized_keys" ? `has unknown keys: ${issue.keys.join(", ")}` : undefined),
  });
}

function without<T extends object, K extends keyof T>(shape: T, ...keys: K[]): Omit<T, K> {
  const rest = { ...shape };
  for (const key of keys) delete rest[key];
  return rest;
}

function topologyShape() {
  // A key renamed with `renamedFrom: <old key>` keeps its resources (Pulumi aliases): an update, not create + delete.
  const renamedFrom = (what: string) =>
    nameField(what).optional().describe(`the ${what}'s former key: renamed in place (Pulumi aliases)`);
  const realServer = strict({
    ...without(realServerInputsSchema().shape, "directors", "service"),
    renamedFrom: renamedFrom("real server"),
  });
  const service = strict({
    ...without(virtualServiceInputsSchema().shape, "directors"),
    directors: z.array(nameField("director")).min(1, { error: "must name at least one director" }),
    realServers: z.record(nameField("real server"), realServer).default({}),
    renamedFrom: renamedFrom("service"),
  });
  const member = (defaultPriority: number) =>
    strict({ director: nameField("director"), ...haPairMemberFields(defaultPriority) });
  const haPair = strict({
    ...without(haPairInputsSchema().shape, "primary", "backup", "vips"),
    primary: member(150),
    backup: member(100),
    floatingAddresses: z.array(floatingAddressSchema()).default([]),
  });
  return strict({
    /** Every VIP must lie in one of these prefixes (the networks the directors answer for). */
    subnets: z
      .array(z.string().refine((value) => cidrFamily(value) !== undefined, { error: "is not a CIDR prefix" }))
      .min(1, { error: "must list at least one prefix" }),
    directors: z.record(nameField("director"), strict(directorInputsSchema().shape)),
    haPairs: z.record(nameField("HA pair"), haPair).default({}),
    services: z.record(nameField("service"), service).default({}),
  });
}

export type TopologyConfig = z.output<ReturnType<typeof topologyShape>>;

export function topologyConfigSchema() {
  // Whole-topology rules run once every field is valid (they read addresses, ports and names).
  return topologyShape().superRefine(checkTopology, { when: (payload) => payload.issues.length === 0 });
}
type ServiceConfig = TopologyConfig["services"][string];

type Issue = (path: PropertyKey[], message: string) => void;

/** A config key as a string, to tell which keys have a failure already. */
function pathKey(path: PropertyKey[]): string {
  return path.map(String).join(".");
}

function checkTopology(topology: TopologyConfig, ctx: z.core.$RefinementCtx): void {
  const reported = new Set<string>();
  const issue: Issue = (path, message) => {
    reported.add(pathKey(path));
    ctx.addIssue({ code: "custom", path, message });
  };
  for (const [name, director] of Object.entries(topology.directors)) {
    checkNoSecrets(director.connection, ["directors", name, "connection"], issue);
  }
  const taken = new Map<string, string>();
  for (const [name, service] of Object.entries(topology.services)) {
    const at = ["services", name];
    const defined = Object.keys(topology.directors);
    service.directors.forEach((director, index) => {
      if (!defined.includes(director)) {
        issue(
          [...at, "directors", index],
          `is not a defined director (lvs:topology.directors has ${defined.join(", ") || "none"})`,
        );
      }
    });
    const directors = service.directors.flatMap((d) => topology.directors[d]?.connection ?? []);
    if (directors.length < service.directors.length) continue;
    // The resource schemas' own cross-field rules (fwmark vs VIP, scheduler flags, forwarding details, families).
    const { realServers, ...fields } = service;
    const serviceInputs = { ...fields, directors };
    reportResourceIssues(virtualServiceInputsSchema(), serviceInputs, at, issue);
    const identity = {
      protocol: fields.protocol,
      address: fields.address,
      port: fields.port,
      fwmark: fields.fwmark,
      family: fields.family,
      match: fields.match,
    };
    const servers = new Map<string, string>();
    for (const [serverName, server] of Object.entries(realServers)) {
      const serverAt = [...at, "realServers", serverName];
      reportResourceIssues(realServerInputsSchema(), { ...server, directors, service: identity }, serverAt, issue);
      if (server.host) checkNoSecrets(server.host, [...serverAt, "host"], issue);
      const key = `${canonicalIp(server.address)} ${server.port ?? fields.port ?? ""}`;
      const other = servers.get(key);
      if (other) issue([...serverAt, "address"], `is already real server "${other}" of this service`);
      else servers.set(key, serverName);
    }
    checkVip(topology.subnets, service, at, issue);
    checkPairServices(topology, name, service, issue);
    const key = serviceDescription(service);
    const first = taken.get(key);
    if (first)
      issue(
        [...at, service.fwmark !== undefined ? "fwmark" : "address"],
        `${key} is already used by lvs:topology.services.${first}`,
      );
    else taken.set(key, name);
  }
  // After the services: a pair's rule on a service's VIP is named at that service, unless the service's own rules
  // refused the VIP already.
  checkHaPairs(topology, issue, reported);
}

/**
 * A service on both directors of a pair is the pair's (keepalived moves its VIP between them), so it cannot be on a
 * third director too. A service on one member only is that director's own.
 */
function checkPairServices(topology: TopologyConfig, name: string, service: ServiceConfig, issue: Issue): void {
  for (const [pairName, pair] of Object.entries(topology.haPairs)) {
    const members = [pair.primary.director, pair.backup.director];
    if (members.every((m) => service.directors.includes(m)) && service.directors.length !== 2) {
      issue(
        ["services", name, "directors"],
        `names both directors of lvs:topology.haPairs.${pairName} and more: a pair's service is on exactly ${members.join(", ")}`,
      );
    }
  }
}

/** The VIPs of the services on a pair's two directors, each with the services that serve it. */
function pairVips(topology: TopologyConfig, pair: TopologyConfig["haPairs"][string]): Map<string, string[]> {
  const members = [pair.primary.director, pair.backup.director];
  const vips = new Map<string, string[]>();
  for (const [name, service] of Object.entries(topology.services)) {
    if (service.address === undefined || !members.every((m) => service.directors.includes(m))) continue;
    const vip = canonicalIp(service.address);
    vips.set(vip, [...(vips.get(vip) ?? []), name]);
  }
  return vips;
}

function checkHaPairs(topology: TopologyConfig, issue: Issue, reported: Set<string>): void {
  const memberOf = new Map<string, string>();
  const routerIds = new Map<number, string>();
  for (const [name, pair] of Object.entries(topology.haPairs)) {
    const at = ["haPairs", name];
    for (const role of ["primary", "backup"] as const) {
      const director = pair[role].director;
      if (!(director in topology.directors)) {
        issue(
          [...at, role, "director"],
          `is not a defined director (lvs:topology.directors has ${Object.keys(topology.directors).join(", ") || "none"})`,
        );
      } else if (memberOf.has(director)) {
        issue(
          [...at, role, "director"],
          `is already in lvs:topology.haPairs.${memberOf.get(director)}: a director serves one pair`,
        );
      } else {
        memberOf.set(director, name);
      }
    }
    if (pair.authentication !== undefined) {
      issue(
        [...at, "authentication"],
        `must not be in plain config (it holds the VRRP password): set it with \`pulumi config set --secret --path lvs:vrrpPasswords.${name} <password>\``,
      );
    }
    const otherPair = routerIds.get(pair.virtualRouterId);
    if (otherPair) issue([...at, "virtualRouterId"], `is already used by lvs:topology.haPairs.${otherPair}`);
    else routerIds.set(pair.virtualRouterId, name);
    const servedBy = pairVips(topology, pair);
    const serviceVips = [...servedBy.keys()];
    if (serviceVips.length + pair.floatingAddresses.length === 0) {
      issue(at, "carries no VIP: no service names both its directors and it has no floatingAddresses");
      continue;
    }
    const connection = (role: "primary" | "backup") => topology.directors[pair[role].director]?.connection;
    if (!connection("primary") || !connection("backup")) continue;
    const { primary, backup, floatingAddresses, ...fields } = pair;
    reportResourceIssues(
      haPairInputsSchema(),
      {
        ...fields,
        primary: { ...primary, connection: connection("primary") },
        backup: { ...backup, connection: connection("backup") },
        vips: [...serviceVips, ...floatingAddresses],
      },
      at,
      issue,
      (path) => {
        // The resource's vips are the services' VIPs, then the floating addresses: each is named where it is set.
        if (path[0] !== "vips" || typeof path[1] !== "number") return [[...at, ...path]];
        const index = path[1];
        if (index >= serviceVips.length) {
          return [[...at, "floatingAddresses", index - serviceVips.length, ...path.slice(2)]];
        }
        return servedBy
          .get(serviceVips[index])!
          .map((service) => ["services", service, "address"])
          .filter((key) => !reported.has(pathKey(key)));
      },
    );
  }
}

function serviceDescription(service: ServiceConfig): string {
  if (service.fwmark !== undefined) return `fwmark ${service.fwmark} (${service.family ?? "inet"})`;
  return `${service.protocol} ${canonicalIp(service.address ?? "")} port ${service.port}`;
}

/** The VIP, and the VIPs a fwmark service's mark matches: the directors hold all of them, so all must be ours. */
function checkVip(subnets: string[], service: ServiceConfig, at: PropertyKey[], issue: Issue): void {
  for (const { path, address } of serviceVipFields(service)) {
    const vip = ipaddr.parse(address);
    const inside = subnets.some((subnet) => {
      const [network, length] = ipaddr.parseCIDR(subnet);
      return network.kind() === vip.kind() && vip.match(network, length);
    });
    if (!inside) issue([...at, ...path], `is not in any of lvs:topology.subnets (${subnets.join(", ")})`);
  }
}

type ConnectionFields = Partial<Record<(typeof SECRET_FIELDS)[number], string>> & { proxy?: object };

function checkNoSecrets(connection: ConnectionFields, at: PropertyKey[], issue: Issue): void {
  for (const field of SECRET_FIELDS) {
    if (connection[field] !== undefined) {
      issue(
        [...at, field],
        "must not be in plain config: set the key with `pulumi config set --secret lvs:sshPrivateKey`",
      );
    }
  }
  if (connection.proxy) checkNoSecrets(connection.proxy, [...at, "proxy"], issue);
}

/**
 * Runs a resource schema on what the topology will send that resource; its issues land on the config's paths: the
 * input's path below `at`, or (a config that gathers an input from elsewhere) the keys `configPaths` names.
 */
function reportResourceIssues(
  schema: z.ZodType,
  inputs: object,
  at: PropertyKey[],
  issue: Issue,
  configPaths = (path: PropertyKey[]): PropertyKey[][] => [[...at, ...path]],
): void {
  const result = schema.safeParse(inputs);
  if (result.success) return;
  for (const resourceIssue of result.error.issues) {
    // The directors and the service identity are checked where the config holds them.
    if (resourceIssue.path[0] === "directors" || resourceIssue.path[0] === "service") continue;
    for (const path of configPaths(resourceIssue.path)) issue(path, resourceIssue.message);
  }
}

export interface TopologyCheck {
  topology?: TopologyConfig;
  failures: CheckFailure[];
}

/** Validates a topology config; each failure's property and reason name the full config key. */
export function checkTopologyConfig(raw: unknown, key = TOPOLOGY_KEY): TopologyCheck {
  const result = validateInputs(topologyConfigSchema(), raw);
  const failures = result.failures.map((failure) => {
    const property = configKey(key, failure.property);
    // validateInputs starts each reason with the property path (or "inputs" for the whole value).
    const rest = failure.reason.slice((failure.property || "inputs").length);
    return { property, reason: `${property}${rest}` };
  });
  return failures.length > 0 ? { failures } : { topology: result.inputs, failures };
}

/** Validates a topology config or throws one error listing every failure. */
export function parseTopologyConfig(raw: unknown, key = TOPOLOGY_KEY): TopologyConfig {
  const { topology, failures } = checkTopologyConfig(raw, key);
  if (!topology) {
    throw new Error(`invalid stack config ${key}:\n${failures.map((f) => `  ${f.reason}`).join("\n")}`);
  }
  return topology;
}

// "services.web.directors.0" -> "lvs:topology.services.web.directors[0]" (names never start with a digit).
function configKey(key: string, path: string): string {
  if (path === "") return key;
  return `${key}.${path}`.replace(/\.(\d+)(?=\.|$)/g, "[$1]");
}

type ConfigConnection = TopologyConfig["directors"][string]["connection"];

/** Whether some connection (or jump host) authenticates with the stack's SSH key rather than an agent. */
export function needsPrivateKey(topology: TopologyConfig): boolean {
  return connectionsOf(topology)
    .flatMap((c) => (c.proxy ? [c, c.proxy] : [c]))
    .some((c) => c.agentSocketPath === undefined);
}

/**
 * The cluster for a validated config: `privateKey` (a secret, from `lvs:sshPrivateKey`) goes to every connection
 * and jump host that does not name an agent socket; a pair named in `vrrpPasswords` (a secret, from
 * `lvs:vrrpPasswords`) gets VRRP PASS authentication with its password.
 */
export function clusterTopology(
  topology: TopologyConfig,
  privateKey?: pulumi.Input<string>,
  vrrpPasswords?: pulumi.Output<Record<string, string>>,
): ClusterTopology {
  function withKey<C extends Omit<ConfigConnection, "proxy" | "sudo">>(connection: C): ConnectionArgs {
    const keyed = connection.agentSocketPath === undefined && privateKey !== undefined ? { privateKey } : {};
    const proxy = "proxy" in connection && connection.proxy ? { proxy: withKey(connection.proxy as C) } : {};
    return { ...connection, ...keyed, ...proxy };
  }
  const directors = Object.fromEntries(
    Object.entries(topology.directors).map(([name, d]) => [name, { ...d, connection: withKey(d.connection) }]),
  );
  const services = Object.fromEntries(
    Object.entries(topology.services).map(([name, service]) => {
      const realServers = Object.fromEntries(
        Object.entries(service.realServers).map(([serverName, server]) => [
          serverName,
          { ...server, host: server.host ? withKey(server.host) : undefined },
        ]),
      );
      return [name, { ...service, realServers }];
    }),
  );
  const haPairs = Object.fromEntries(
    Object.entries(topology.haPairs).map(([name, pair]) => [
      name,
      vrrpPasswords
        ? {
            ...pair,
            authentication: vrrpPasswords.apply((passwords) =>
              passwords[name] === undefined ? undefined : { type: "PASS" as const, password: passwords[name] },
            ),
          }
        : pair,
    ]),
  );
  return { directors, haPairs, services };
}

function connectionsOf(topology: TopologyConfig): ConfigConnection[] {
  return [
    ...Object.values(topology.directors).map((d) => d.connection),
    ...Object.values(topology.services).flatMap((s) => Object.values(s.realServers).flatMap((r) => r.host ?? [])),
  ];
}
