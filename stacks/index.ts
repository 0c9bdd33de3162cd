// The stack program (Pulumi.yaml `main: stacks/index.ts`): one LvsCluster built from the stack's configuration.
//   lvs:topology        the cluster (see provider/cluster/config.ts; Pulumi.<stack>.yaml has examples)
//   lvs:sshPrivateKey   secret: the SSH key for every connection without an agent socket
//   lvs:vrrpPasswords   secret, optional: {<HA pair name>: password} for VRRP PASS authentication of that pair
//   lvs:labHostsFile    lab stack only: fill in the lab's host keys and jump host (stacks/lab-hosts.ts); a relative
//                       path is taken from the project root (the CLI runs this program in stacks/)
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { clusterTopology, LvsCluster, needsPrivateKey, parseTopologyConfig } from "../provider/cluster";
import { withLabHosts } from "./lab-hosts";

export = function lvsStack() {
  const config = new pulumi.Config("lvs");
  const raw = config.requireObject<unknown>("topology");
  const labHostsFile = config.get("labHostsFile");
  const topology = parseTopologyConfig(
    labHostsFile ? withLabHosts(raw, path.resolve(pulumi.getRootDirectory(), labHostsFile)) : raw,
  );
  const privateKey = needsPrivateKey(topology) ? config.requireSecret("sshPrivateKey") : undefined;
  const vrrpPasswords = config.getSecretObject<Record<string, string>>("vrrpPasswords");
  const cluster = new LvsCluster("lvs", clusterTopology(topology, privateKey, vrrpPasswords));
  return { vips: cluster.vips, directors: cluster.directors, haPairs: cluster.haPairs };
};
