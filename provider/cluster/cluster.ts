import * as pulumi from "@pulumi/pulumi";
import type { DirectorTable } from "../facts/directorTable";
import { Director } from "../resources/director";
import { RealServer } from "../resources/real-server";
import { VirtualService } from "../resources/virtual-service";
import { hostPort } from "../schemas/ip";
import { ClusterTopology } from "./topology";

export interface LvsClusterDirectorInfo {
  host: string;
  kernelRelease: string;
  ipvsadmVersion: string;
  /** Its live IPVS table as of the last apply or refresh. */
  table: DirectorTable;
}

/**
 * A whole LVS cluster from one topology: a Director per director, a VirtualService per service (on the directors it
 * names) and a RealServer per real server, all children of this component. Dependencies follow the data: a service
 * takes its directors' connections, a real server its service's identity, so creation runs directors -> services
 * -> real servers and deletion the other way round.
 */
export class LvsCluster extends pulumi.ComponentResource {
  /** Every virtual service as "proto:VIP:port" (IPv6 VIPs in brackets) or "fwm:<mark>", in topology order. */
  readonly vips: pulumi.Output<string[]>;
  /** Per director name: its SSH host, what it runs and its live table (not secret, unlike the connection). */
  readonly directors: pulumi.Output<Record<string, LvsClusterDirectorInfo>>;

  /** The child resources by topology name, for programs that build on them. */
  readonly directorResources: Record<string, Director> = {};
  readonly serviceResources: Record<string, VirtualService> = {};
  readonly realServerResources: Record<string, Record<string, RealServer>> = {};

  constructor(name: string, topology: ClusterTopology, opts?: pulumi.ComponentResourceOptions) {
    super("lvs:index:LvsCluster", name, {}, opts);
    const child = { parent: this };

    for (const [directorName, args] of Object.entries(topology.directors)) {
      this.directorResources[directorName] = new Director(`${name}-${directorName}`, args, child);
    }
    for (const [serviceName, spec] of Object.entries(topology.services)) {
      const { directors, realServers, ...args } = spec;
      const service = new VirtualService(
        `${name}-${serviceName}`,
        { ...args, directors: this.directorsOf(serviceName, directors) },
        child,
      );
      this.serviceResources[serviceName] = service;
      this.realServerResources[serviceName] = {};
      for (const [serverName, server] of Object.entries(realServers)) {
        this.realServerResources[serviceName][serverName] = new RealServer(
          `${name}-${serviceName}-${serverName}`,
          { ...server, service },
          child,
        );
      }
    }

    this.vips = pulumi.all(Object.values(this.serviceResources).map(serviceKey));
    const directorInfo = pulumi.all(
      Object.fromEntries(
        Object.entries(this.directorResources).map(([directorName, director]) => [
          directorName,
          pulumi
            .all([director.connection, director.kernelRelease, director.ipvsadmVersion, director.table])
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
    this.registerOutputs({ vips: this.vips, directors: this.directors });
  }

  private directorsOf(serviceName: string, names: string[]): Director[] {
    return names.map((directorName) => {
      const director = this.directorResources[directorName];
      if (!director) {
        throw new Error(`LvsCluster: service "${serviceName}" names director "${directorName}", which is not defined`);
      }
      return director;
    });
  }
}

function serviceKey(service: VirtualService): pulumi.Output<string> {
  return pulumi
    .all([service.protocol, service.address, service.port, service.fwmark])
    .apply(([protocol, address, port, fwmark]) =>
      fwmark !== undefined && fwmark !== null ? `fwm:${fwmark}` : `${protocol}:${hostPort(address ?? "", port ?? 0)}`,
    );
}
