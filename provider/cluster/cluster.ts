import * as pulumi from "@pulumi/pulumi";
import type { DirectorTable } from "../facts/director-table";
import { Director } from "../resources/director";
import { HAPair } from "../resources/ha-pair";
import { liveDirectorTable } from "../resources/live-table";
import { RealServer } from "../resources/real-server";
import { VirtualService } from "../resources/virtual-service";
import { serviceKey } from "../model/ipvs";
import type { Protocol } from "../model/vocabulary";
import { ClusterHaPair, ClusterService, ClusterTopology } from "./topology";

export interface LvsClusterDirectorInfo {
  host: string;
  kernelRelease: string;
  ipvsadmVersion: string;
  /**
   * Its live IPVS table once this run's creates and updates are done (resources/live-table.ts); undefined in a
   * preview. Resources taken out of the program are deleted after it ends (Pulumi's order): the next run shows that.
   */
  table: DirectorTable | undefined;
}

/**
 * A whole LVS cluster from one topology: a Director per director, a VirtualService per service (on the directors it
 * names), an HAPair per pair (its VIPs: those the services on both its directors serve) and a RealServer per real
 * server, all children of this component. Dependencies follow the data: a service
 * takes its directors' connections, a real server its service's identity, so creation runs directors -> services
 * -> real servers and deletion the other way round.
 */
export class LvsCluster extends pulumi.ComponentResource {
  /** Every virtual service as "proto:VIP:port" (IPv6 VIPs in brackets) or "fwm:<mark>", in topology order. */
  readonly vips: pulumi.Output<string[]>;
  /** Per director name: its SSH host, what it runs and its live table (not secret, unlike the connection). */
  readonly directors: pulumi.Output<Record<string, LvsClusterDirectorInfo>>;

  /** Per HA pair name: the SSH host of the director holding its VIPs, as of the last apply or refresh. */
  readonly haPairs: pulumi.Output<Record<string, { master: string }>>;

  /** The child resources by topology name, for programs that build on them. */
  readonly directorResources: Record<string, Director> = {};
  readonly serviceResources: Record<string, VirtualService> = {};
  readonly realServerResources: Record<string, Record<string, RealServer>> = {};
  readonly haPairResources: Record<string, HAPair> = {};

  constructor(name: string, topology: ClusterTopology, opts?: pulumi.ComponentResourceOptions) {
    super("lvs:index:LvsCluster", name, {}, opts);
    const child = { parent: this };
    const pairOfService = servicePairs(topology);

    for (const [directorName, args] of Object.entries(topology.directors)) {
      this.directorResources[directorName] = new Director(`${name}-${directorName}`, args, child);
    }
    const pairServices: Record<
      string,
      { vips: pulumi.Output<string[]>; resource: VirtualService; realServers: RealServer[] }[]
    > = {};
    for (const [serviceName, spec] of Object.entries(topology.services)) {
      const { directors, realServers, renamedFrom, ...args } = spec;
      // A renamed key: the resources under the old names are these (aliases), so nothing is created or deleted.
      const formerly = (former: string, current: string) =>
        former === current ? child : { ...child, aliases: [{ name: `${name}-${former}` }] };
      const formerService = renamedFrom ?? serviceName;
      const pairName = pairOfService[serviceName];
      const service = new VirtualService(
        `${name}-${serviceName}`,
        {
          ...args,
          directors: this.directorsOf(serviceName, directors),
          // On a pair keepalived holds the VIP on whichever director is master.
          ...(pairName !== undefined ? { bindVip: false } : {}),
        },
        formerly(formerService, serviceName),
      );
      this.serviceResources[serviceName] = service;
      this.realServerResources[serviceName] = {};
      for (const [serverName, { renamedFrom: formerServer, ...server }] of Object.entries(realServers)) {
        this.realServerResources[serviceName][serverName] = new RealServer(
          `${name}-${serviceName}-${serverName}`,
          { ...server, service },
          formerly(`${formerService}-${formerServer ?? serverName}`, `${serviceName}-${serverName}`),
        );
      }
      // The pair follows its real servers too: after a director was known down, their changes reach it before the
      // pair gives the VIPs back to it (kinds/ha-pair/apply.ts).
      const servers = Object.values(this.realServerResources[serviceName]);
      if (pairName !== undefined)
        (pairServices[pairName] ??= []).push({ vips: servedVips(spec), resource: service, realServers: servers });
    }

    for (const [pairName, pair] of Object.entries(topology.haPairs ?? {})) {
      const carried = pairServices[pairName] ?? [];
      const { primary, backup, floatingAddresses, ...args } = pair;
      const vips = pulumi
        .all([pulumi.all(carried.map((c) => c.vips)), pulumi.all(floatingAddresses ?? [])])
        .apply(([held, floating]) => [...new Set(held.flat()), ...floating]);
      const member = (m: ClusterHaPair["primary"]) => ({ ...m, director: this.directorsOf(pairName, [m.director])[0] });
      // The VIPs come up once their services and real servers exist (and go first on destroy), as a director-held
      // VIP does.
      this.haPairResources[pairName] = new HAPair(
        `${name}-${pairName}`,
        {
          ...args,
          primary: member(primary),
          backup: member(backup),
          vips,
        },
        { parent: this, dependsOn: [...carried.map((c) => c.resource), ...carried.flatMap((c) => c.realServers)] },
      );
    }

    this.vips = pulumi.all(Object.values(this.serviceResources).map(serviceKeyOf));
    const all: pulumi.Resource[] = [
      ...Object.values(this.directorResources),
      ...Object.values(this.serviceResources),
      ...Object.values(this.realServerResources).flatMap((servers) => Object.values(servers)),
      ...Object.values(this.haPairResources),
    ];
    const directorInfo = pulumi.all(
      Object.fromEntries(
        Object.entries(this.directorResources).map(([directorName, director]) => [
          directorName,
          pulumi
            .all([
              director.connection,
              director.kernelRelease,
              director.ipvsadmVersion,
              liveDirectorTable(director, all),
            ])
            .apply(([connection, kernelRelease, ipvsadmVersion, table]) => ({
              host: connection.host,
              kernelRelease,
              ipvsadmVersion,
              table,
            })),
        ]),
      ),
    );
    // The connection output is secret (it holds the key); the host name and versions derived from it are not.
    this.directors = pulumi.unsecret(directorInfo);
    this.haPairs = pulumi.all(
      Object.fromEntries(
        Object.entries(this.haPairResources).map(([n, pair]) => [n, pair.master.apply((master) => ({ master }))]),
      ),
    );
    this.registerOutputs({ vips: this.vips, directors: this.directors, haPairs: this.haPairs });
  }

  private directorsOf(owner: string, names: string[]): Director[] {
    return names.map((directorName) => {
      const director = this.directorResources[directorName];
      if (!director) {
        throw new Error(`LvsCluster: "${owner}" names director "${directorName}", which is not defined`);
      }
      return director;
    });
  }
}

/**
 * The HA pair carrying each service: the one whose two directors it names (a service on one member only is that
 * director's own, VIP included). Checked before any resource exists.
 */
function servicePairs(topology: ClusterTopology): Record<string, string | undefined> {
  const pairs = Object.entries(topology.haPairs ?? {});
  return Object.fromEntries(
    Object.entries(topology.services).map(([serviceName, { directors }]) => {
      const pair = pairs.find(([, p]) => [p.primary.director, p.backup.director].every((d) => directors.includes(d)));
      if (!pair) return [serviceName, undefined];
      if (directors.length !== 2) {
        const members = [pair[1].primary.director, pair[1].backup.director];
        throw new Error(
          `LvsCluster: service "${serviceName}" is on HA pair "${pair[0]}" and more directors: list exactly ${members.join(", ")}`,
        );
      }
      return [serviceName, pair[0]];
    }),
  );
}

/** The VIPs a service serves: its address, or those its fwmark match selects. */
function servedVips(spec: ClusterService): pulumi.Output<string[]> {
  return pulumi
    .all([spec.address, spec.match])
    .apply(([address, match]) => (address !== undefined ? [address] : (match?.addresses ?? [])));
}

/** The service's key as the provider keys its entry (`tcp:203.0.113.10:80`, `fwm:5`, `fwm6:5`). */
function serviceKeyOf(service: VirtualService): pulumi.Output<string> {
  return pulumi
    .all([service.protocol, service.address, service.port, service.fwmark, service.family])
    .apply(([protocol, address, port, fwmark, family]) =>
      serviceKey(
        fwmark !== undefined && fwmark !== null
          ? { fwmark, family: family === "inet6" ? "inet6" : "inet" }
          : { protocol: protocol as Protocol, address: address ?? "", port: port ?? 0 },
      ),
    );
}
