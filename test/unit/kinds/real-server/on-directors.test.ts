// What reaches a director when many real servers are written at once, counted on a stand-in director
// (stand-in-director.ts: real reads of captured output, change scripts kept and never run).
import { applyRealServer, removeRealServer } from "../../../../provider/kinds/real-server/apply";
import { realServerInputsSchema } from "../../../../provider/schemas/real-server";
import { actorOf, inOneShell, useStandInDirector } from "../../operations/stand-in-director";

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
  await Promise.all(realServers(20).map((inputs) => applyRealServer(inputs, actorOf(inputs))));
  // DR holds nothing of the director beyond its entry: no claim is written.
  expect(director().counted("-a")).toEqual(inOneShell({ tableReads: 1, scripts: 1, steps: [20] }));
  // Their entries go in one ipvsadm -R, their boot fragments in one mv, their owners files in another (the other
  // two: the boot replay's files).
  expect(director().restores()).toEqual([1]);
  expect(director().programs("mv")).toEqual([4]);
});

test("20 real servers removed together: one SSH channel and one table read", async () => {
  await Promise.all(realServers(20).map((inputs) => removeRealServer(inputs, actorOf(inputs))));
  // Nothing of ours is on this stand-in host (its scripts never ran), so there is nothing to change.
  expect(director().counted("-d")).toEqual(inOneShell({ tableReads: 1, scripts: 0, steps: [] }));
});

test("a line failing the batch's ipvsadm -R fails its own real server only: the batch runs again unmerged, the ones before it are done there, the rest run in the next batch", async () => {
  director().reset(`-r ${rip(6)}:80`);
  const results = await Promise.allSettled(realServers(20).map((inputs) => applyRealServer(inputs, actorOf(inputs))));
  const failed = results.flatMap((r, i) => (r.status === "rejected" ? [{ i, message: String(r.reason) }] : []));
  expect(failed.map((f) => f.i)).toEqual([6]);
  expect(failed[0].message).toContain(`ipvsadm -a -t 203.0.113.101:80 -r ${rip(6)}:80 -g -w 1`);
  expect(failed[0].message).toContain("Memory allocation problem");
  // Batch 1: one ipvsadm -R of all 20 (fails); batch 2: 20 steps of their own, failing at the 7th; batch 3: the 13
  // after it, merged again. One SSH channel for the three: the lock's shell is kept from one hold to the next.
  expect(director().counted("-a")).toEqual(inOneShell({ tableReads: 3, scripts: 3, steps: [20, 20, 13] }));
  expect(director().restores()).toEqual([1, 0, 1]);
});

test("a batch holds at most 50 real servers: 60 IPv6 ones (4 files each to read) are read and written in two", async () => {
  await Promise.all(realServers(60, "inet6").map((inputs) => applyRealServer(inputs, actorOf(inputs))));
  expect(director().counted("-a")).toEqual(inOneShell({ tableReads: 2, scripts: 2, steps: [50, 10] }));
});

test("a real server already in the table is compared thresholds included: its batch reads them, one of new ones does not", async () => {
  // In the captured table: 203.0.113.109:80 -> 198.51.100.131:80, DR, weight 2.
  const existing = realServerInputsSchema().parse({
    directors: [director().connection],
    service: { protocol: "tcp", address: "203.0.113.109", port: 80 },
    address: "198.51.100.131",
    weight: 2,
    adopt: true,
  });
  await applyRealServer(existing, actorOf(existing));
  expect(director().counted("-e")).toMatchObject({ tableReads: 1, thresholdReads: 1, steps: [0] });
});
