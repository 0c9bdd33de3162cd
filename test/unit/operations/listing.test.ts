import { listedOn } from "../../../provider/operations/listing";
import { readRealServer } from "../../../provider/kinds/real-server/apply";
import { realServerInputsSchema } from "../../../provider/schemas/real-server";
import { useStandInDirector } from "./stand-in-director";

const wanted = (weight: number) => weight === 1;

test("an entry listed by every director as wanted: that entry, missing from none", () => {
  const listed = listedOn(
    [
      { director: "root@198.51.100.11:22", entry: 1 },
      { director: "root@198.51.100.12:22", entry: 1 },
    ],
    wanted,
  );
  expect(listed).toEqual({ entry: 1, missingFrom: [] });
});

test("drift on the second director shows: the entry that is not as wanted", () => {
  const listed = listedOn(
    [
      { director: "root@198.51.100.11:22", entry: 1 },
      { director: "root@198.51.100.12:22", entry: 5 },
    ],
    wanted,
  );
  expect(listed).toEqual({ entry: 5, missingFrom: [] });
});

test("an entry gone from one director only is drift: the directors without it are named", () => {
  const listed = listedOn(
    [
      { director: "root@198.51.100.11:22", entry: 1 },
      { director: "root@198.51.100.12:22", entry: undefined },
    ],
    wanted,
  );
  expect(listed).toEqual({ entry: 1, missingFrom: ["root@198.51.100.12:22"] });
});

test("an entry no director lists any more is gone", () => {
  const listed = listedOn([{ director: "root@198.51.100.11:22", entry: undefined }], wanted);
  expect(listed).toEqual({ entry: undefined, missingFrom: ["root@198.51.100.11:22"] });
});

// What reaches a director when many resources are refreshed at once, counted on a stand-in director
// (stand-in-director.ts: its `ipvsadm` prints captured real output, so the provider parses a real table).
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
