import { droppedDirectors, sameMachine } from "../../../provider/operations/directors";
import { ConnectionSpec } from "../../../provider/remote";

// What each address's host says it is (machine id and host keys): dir1 is reached by an address and a name.
const ids: Record<string, string | undefined> = {
  "198.51.100.11": "machine-1",
  "dir1.example": "machine-1",
  "198.51.100.12": "machine-2",
  "198.51.100.13": undefined,
};
const identify = (c: ConnectionSpec) => Promise.resolve(ids[c.host]);

test("a director is dropped when no director with its host and port remains; port 22 is the default", async () => {
  const dir1: ConnectionSpec = { host: "198.51.100.11" };
  const dir2 = { host: "198.51.100.12", port: 22 };
  const dir2Alt = { host: "198.51.100.12", port: 2222 };
  expect(await droppedDirectors([dir1, dir2], [{ host: "198.51.100.11", port: 22 }], identify)).toEqual([dir2]);
  expect(await droppedDirectors([dir1], [dir1, dir2], identify)).toEqual([]);
  // Another port of the same machine is another sshd of it: nothing is dropped from that machine.
  expect(await droppedDirectors([dir1, dir2], [dir1, dir2Alt], identify)).toEqual([]);
});

test("a director reached by a second name is the same machine: nothing is dropped from it", async () => {
  const byName = { host: "dir1.example" };
  expect(await droppedDirectors([{ host: "198.51.100.11" }], [byName], identify)).toEqual([]);
  expect(await sameMachine({ host: "198.51.100.11" }, byName, identify)).toBe(true);
  expect(await sameMachine({ host: "198.51.100.11" }, { host: "198.51.100.12" }, identify)).toBe(false);
  // A host that says nothing about itself is only the same host by the same address.
  expect(await droppedDirectors([{ host: "198.51.100.13" }], [byName], identify)).toEqual([{ host: "198.51.100.13" }]);
});
