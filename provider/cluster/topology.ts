import type { DirectorArgs } from "../resources/director";
import type * as pulumi from "@pulumi/pulumi";
import type { FloatingAddress, HAPairArgs, HAPairMemberArgs } from "../resources/ha-pair";
import type { RealServerArgs } from "../resources/real-server";
import type { VirtualServiceArgs } from "../resources/virtual-service";

// One load-balancing cluster as data: every level is a map keyed by a name that becomes part of the resource names,
// so new kinds of entries (HA pairs next to `directors`, a health check or drain policy on a real server) join as
// one more optional member, without renaming what exists.

/** A director: the same arguments as the Director resource. */
export type ClusterDirector = DirectorArgs;

/** A real server of one service: the RealServer arguments without the service (the enclosing one). */
export type ClusterRealServer = Omit<RealServerArgs, "service"> & {
  /** The real server's former key in its service: the RealServer keeps its state (Pulumi aliases). */
  renamedFrom?: string;
};

/** A virtual service carried by named directors, with its real servers. */
export interface ClusterService extends Omit<VirtualServiceArgs, "directors"> {
  /** Names from `ClusterTopology.directors`. */
  directors: string[];
  realServers: Record<string, ClusterRealServer>;
  /** The service's former key: its VirtualService and RealServers keep their state (Pulumi aliases). */
  renamedFrom?: string;
}

/** A pair member: a name from `ClusterTopology.directors` instead of the resource. */
export interface ClusterHaPairMember extends Omit<HAPairMemberArgs, "director"> {
  director: string;
}

/**
 * Two directors sharing VIPs: every service that names both of them is carried by the pair (keepalived holds its
 * VIP), plus `floatingAddresses` such as a DIP that NAT real servers route through.
 */
export interface ClusterHaPair extends Omit<HAPairArgs, "primary" | "backup" | "vips"> {
  primary: ClusterHaPairMember;
  backup: ClusterHaPairMember;
  floatingAddresses?: pulumi.Input<FloatingAddress>[];
}

export interface ClusterTopology {
  directors: Record<string, ClusterDirector>;
  haPairs?: Record<string, ClusterHaPair>;
  services: Record<string, ClusterService>;
}
