// The benchmark's own arithmetic: what it deploys and how it compares a live table with the desired one.
import { benchServices, desiredTable, liveTable, topologyConfig } from "../../bench/topology";
import { parseTopologyConfig } from "../../../provider/cluster/config";

const HOST_KEY = "SHA256:" + "A".repeat(43);

test("20 services x 5 real servers; the change gives every tenth real server weight 2", () => {
  const initial = benchServices(5, false);
  const changed = benchServices(5, true);
  expect(initial.flatMap((s) => s.realServers)).toHaveLength(100);
  const weights = changed.flatMap((s) => s.realServers.map((rs) => rs.weight));
  expect(weights.filter((w) => w === 2)).toHaveLength(10);
  expect(() => benchServices(51, false)).toThrow("real servers per service must be 1..50, got 51");
});

test("the stack config it deploys is a valid lvs:topology (an HA pair over both directors)", () => {
  const config = topologyConfig(benchServices(2, false)) as { directors: Record<string, { connection: object }> };
  for (const director of Object.values(config.directors)) Object.assign(director.connection, { hostKey: HOST_KEY });
  const parsed = parseTopologyConfig(config);
  expect(Object.keys(parsed.services)).toHaveLength(20);
  expect(parsed.haPairs.pair.primary.director).toBe("dir1");
});

test("a live table read back with ipvsadm -Sn compares equal to the desired one, and a changed weight does not", () => {
  const services = benchServices(2, false).slice(0, 1);
  const save = [
    "-A -t 198.51.100.40:10001 -s wrr",
    "-a -t 198.51.100.40:10001 -r 198.51.100.193:10001 -g -w 1",
    "-a -t 198.51.100.40:10001 -r 198.51.100.194:10001 -g -w 1",
  ].join("\n");
  expect(liveTable(save)).toEqual(desiredTable(services));
  expect(liveTable(save.replace("194:10001 -g -w 1", "194:10001 -g -w 2"))).not.toEqual(desiredTable(services));
});
