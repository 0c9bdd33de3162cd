export { LvsCluster, LvsClusterDirectorInfo } from "./cluster";
export type {
  ClusterDirector,
  ClusterHaPair,
  ClusterHaPairMember,
  ClusterRealServer,
  ClusterService,
  ClusterTopology,
} from "./topology";
export {
  checkTopologyConfig,
  clusterTopology,
  needsPrivateKey,
  parseTopologyConfig,
  TOPOLOGY_KEY,
  TopologyCheck,
  TopologyConfig,
  topologyConfigSchema,
} from "./config";
