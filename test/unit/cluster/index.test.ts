// The cluster entry: what the stack program (stacks/index.ts) and the package's root (provider/index.ts) take from it.
import * as root from "../../../provider";
import * as entry from "../../../provider/cluster";
import { LvsCluster } from "../../../provider/cluster/cluster";
import * as config from "../../../provider/cluster/config";

test("the cluster entry exports LvsCluster and the topology config's functions, as themselves", () => {
  expect(entry.LvsCluster).toBe(LvsCluster);
  for (const name of [
    "checkTopologyConfig",
    "clusterTopology",
    "needsPrivateKey",
    "parseTopologyConfig",
    "topologyConfigSchema",
  ] as const) {
    expect({ name, exported: entry[name] }).toEqual({ name, exported: config[name] });
  }
  // The stack config key the README documents.
  expect(entry.TOPOLOGY_KEY).toBe("lvs:topology");
});

test("the package root offers the same cluster API for programs", () => {
  expect(root.LvsCluster).toBe(entry.LvsCluster);
  expect(root.clusterTopology).toBe(entry.clusterTopology);
  expect(root.parseTopologyConfig).toBe(entry.parseTopologyConfig);
  expect(root.checkTopologyConfig).toBe(entry.checkTopologyConfig);
  expect(root.topologyConfigSchema).toBe(entry.topologyConfigSchema);
});

test("what the entry exports works on a topology: checked with errors naming the key, then parsed", () => {
  const bad = entry.checkTopologyConfig({ directors: { dir1: {} } });
  expect(JSON.stringify(bad)).toContain("lvs:topology");
  expect(() => entry.parseTopologyConfig({ directors: { dir1: {} } })).toThrow(/lvs:topology/);
});
