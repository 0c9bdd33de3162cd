import { droppedDirectors, onEveryDirector, sameMachine } from "../../../provider/operations/directors";
import { withHost } from "../../../provider/operations/session";
import { HOSTS_DOWN_VARIABLE, knownDown } from "../../../provider/operations/unreachable";
import { ConnectionSpec, HostUnreachableError, setLogger } from "../../../provider/remote";

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

describe("directors listed in LVS_PULUMI_HOSTS_DOWN", () => {
  const dir1 = { host: "198.51.100.11" };
  const dir2 = { host: "198.51.100.12" };
  beforeEach(() => setLogger({ debug: () => {}, info: () => {}, warn: () => {} }));
  afterEach(() => {
    delete process.env[HOSTS_DOWN_VARIABLE];
    setLogger();
  });

  test("a change skips them and says which; a removal, or all of them down, fails without touching them", async () => {
    process.env[HOSTS_DOWN_VARIABLE] = " 198.51.100.11 ,other.example";
    const touched: string[] = [];
    const each = async (d: ConnectionSpec) => void touched.push(d.host);
    expect(await onEveryDirector([dir1, dir2], each, true)).toEqual([dir1]);
    expect(touched).toEqual(["198.51.100.12"]);
    await expect(onEveryDirector([dir1], each, true)).rejects.toThrow(
      "host 198.51.100.11:22 unreachable after 0 attempts: listed in LVS_PULUMI_HOSTS_DOWN",
    );
    // A removal runs on every director (here the callback stands in for withHost, which refuses a listed host).
    expect(await onEveryDirector([dir1, dir2], each)).toEqual([]);
    expect(touched).toEqual(["198.51.100.12", "198.51.100.11", "198.51.100.12"]);
  });

  test("a director dropped while a kept one is down fails before any read: it could be that machine", async () => {
    process.env[HOSTS_DOWN_VARIABLE] = dir1.host;
    const asked: string[] = [];
    const asking = (c: ConnectionSpec) => (asked.push(c.host), identify(c));
    await expect(droppedDirectors([{ host: "dir1.example" }], [dir1, dir2], asking)).rejects.toThrow(
      "the directors dir1.example leave this resource while 198.51.100.11, listed in LVS_PULUMI_HOSTS_DOWN, cannot " +
        "be told apart from them by machine id: change the directors once 198.51.100.11 is back; nothing was changed",
    );
    expect(asked).toEqual([]);
    // No director leaves: nothing to tell apart, the down one is no obstacle.
    expect(await droppedDirectors([dir1, dir2], [dir1, dir2], asking)).toEqual([]);
  });

  test("hosts match however they are written; nothing is down without the variable", () => {
    process.env[HOSTS_DOWN_VARIABLE] = "2001:DB8::11,Dir3.Example";
    expect(knownDown({ host: "2001:db8:0::11" })).toBe(true);
    expect(knownDown({ host: "dir3.example", port: 2222 })).toBe(true);
    expect(knownDown(dir1)).toBe(false);
    delete process.env[HOSTS_DOWN_VARIABLE];
    expect(knownDown({ host: "2001:db8::11" })).toBe(false);
  });

  test("withHost refuses a listed host at once, before any dial", async () => {
    process.env[HOSTS_DOWN_VARIABLE] = "198.51.100.11";
    const started = Date.now();
    await expect(withHost(dir1, async () => "reached")).rejects.toBeInstanceOf(HostUnreachableError);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
