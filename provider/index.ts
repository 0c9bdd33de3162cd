// lvs-pulumi: Linux Virtual Server load balancers as Pulumi resources, built over SSH.
export type { ConnectionArgs } from "./resources/connection";
export type { DirectorTable, ListedRealServer, ListedVirtualService } from "./facts/director-table";
export { Director, DirectorArgs, DirectorRef } from "./resources/director";
export { liveDirectorTable } from "./resources/live-table";
export { FwmarkMatchArgs, HealthCheckArgs, VirtualService, VirtualServiceArgs } from "./resources/virtual-service";
export { RealServer, RealServerArgs } from "./resources/real-server";
export { HAPair, HAPairArgs, HAPairMemberArgs, FloatingAddress } from "./resources/ha-pair";
export {
  LvsCluster,
  LvsClusterDirectorInfo,
  ClusterDirector,
  ClusterHaPair,
  ClusterHaPairMember,
  ClusterRealServer,
  ClusterService,
  ClusterTopology,
  checkTopologyConfig,
  clusterTopology,
  parseTopologyConfig,
  topologyConfigSchema,
  TopologyConfig,
} from "./cluster";
