export { LvsCluster, LvsClusterDirectorInfo } from "./cluster";
export type { ClusterDirector, ClusterRealServer, ClusterService, ClusterTopology } from "./topology";
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
