import { listedOn } from "../../../provider/operations/listing";

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
