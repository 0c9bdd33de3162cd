import { droppedDirectors } from "../../../provider/operations/directors";
import { ConnectionSpec } from "../../../provider/remote";

test("a director is dropped when no director with its host and port remains; port 22 is the default", () => {
  const dir1: ConnectionSpec = { host: "198.51.100.11" };
  const dir2 = { host: "198.51.100.12", port: 22 };
  const dir2Alt = { host: "198.51.100.12", port: 2222 };
  expect(droppedDirectors([dir1, dir2], [{ host: "198.51.100.11", port: 22 }])).toEqual([dir2]);
  expect(droppedDirectors([dir1, dir2], [dir1, dir2Alt])).toEqual([dir2]);
  expect(droppedDirectors([dir1], [dir1, dir2])).toEqual([]);
});
