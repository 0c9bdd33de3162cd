// What reaches a director when many real servers are written at once, counted on a stand-in director
// (stand-in-director.ts: real reads of captured output, change scripts kept and never run).
import { applyRealServer, removeRealServer } from "../../../provider/operations/real-server";
import { realServerInputsSchema } from "../../../provider/schemas/realServer";
import { useStandInDirector } from "./stand-in-director";

const director = useStandInDirector();

const rip = (i: number) => `198.51.100.${150 + i}`;
const rip6 = (i: number) => `2001:db8:1::${(0x100 + i).toString(16)}`;

function realServers(count: number, family: "inet" | "inet6" = "inet") {
  return Array.from({ length: count }, (_, i) =>
    realServerInputsSchema().parse({
      directors: [director().connection],
      service: { protocol: "tcp", address: family === "inet" ? "203.0.113.101" : "2001:db8::101", port: 80 },
      address: family === "inet" ? rip(i) : rip6(i),
      forwarding: "dr",
    }),
  );
}

test("20 DR real servers created together: one SSH channel (the lock's shell runs the read and the script), one table read, one script", async () => {
  await Promise.all(realServers(20).map((inputs) => applyRealServer(inputs)));
  // DR holds nothing of the director beyond its entry: no claim is written.
  expect(director().counted("-a")).toEqual({ channels: 1, locks: 1, tableReads: 1, scripts: 1, steps: [20] });
});

test("20 real servers removed together: one SSH channel and one table read", async () => {
  await Promise.all(realServers(20).map((inputs) => removeRealServer(inputs)));
  // Nothing of ours is on this stand-in host (its scripts never ran), so there is nothing to change.
  expect(director().counted("-d")).toEqual({ channels: 1, locks: 1, tableReads: 1, scripts: 0, steps: [] });
});

test("a step failing in a batch fails its own real server only: the ones before are done, the rest run in the next batch", async () => {
  director().reset(`-r ${rip(6)}:80`);
  const results = await Promise.allSettled(realServers(20).map((inputs) => applyRealServer(inputs)));
  const failed = results.flatMap((r, i) => (r.status === "rejected" ? [{ i, message: String(r.reason) }] : []));
  expect(failed.map((f) => f.i)).toEqual([6]);
  expect(failed[0].message).toContain(`ipvsadm -a -t 203.0.113.101:80 -r ${rip(6)}:80 -g -w 1`);
  expect(failed[0].message).toContain("Memory allocation problem");
  // Batch 1: all 20 (failing at the 7th); batch 2: the 13 after it.
  expect(director().counted("-a")).toEqual({ channels: 2, locks: 2, tableReads: 2, scripts: 2, steps: [20, 13] });
});

test("a batch holds at most 50 real servers: 60 IPv6 ones (4 files each to read) are read and written in two", async () => {
  await Promise.all(realServers(60, "inet6").map((inputs) => applyRealServer(inputs)));
  expect(director().counted("-a")).toEqual({ channels: 2, locks: 2, tableReads: 2, scripts: 2, steps: [50, 10] });
});
