// What reaches a director when many resources are refreshed at once, counted on a stand-in director
// (stand-in-director.ts: its `ipvsadm` prints captured real output, so the provider parses a real table).
import { readRealServer } from "../../../provider/kinds/real-server/apply";
import { realServerInputsSchema } from "../../../provider/schemas/real-server";
import { useStandInDirector } from "./stand-in-director";

const director = useStandInDirector();

test("20 real servers of one director refreshed together: two table reads in one lock shell, not 20 reads", async () => {
  const servers = Array.from({ length: 20 }, (_, i) =>
    realServerInputsSchema().parse({
      directors: [director().connection],
      service: { protocol: "tcp", address: "203.0.113.101", port: 80 },
      address: i % 2 === 0 ? "198.51.100.131" : "198.51.100.132",
      forwarding: "nat",
    }),
  );
  const listed = await Promise.all(servers.map(readRealServer));
  expect(listed.map((l) => l.entry?.weight)).toEqual(Array(20).fill(1));
  expect(listed.every((l) => l.missingFrom.length === 0)).toBe(true);
  const { tableReads, locks, channels } = director().counted("-a");
  expect({ tableReads, locks, channels }).toEqual({ tableReads: 2, locks: 1, channels: 1 });
});
