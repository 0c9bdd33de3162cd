import { HOST_WHOLE, hostDrift, missing, ON_EVERY_DIRECTOR, skipped } from "../../../provider/kinds/outputs";

const dir1 = { host: "198.51.100.11" };
const dir2 = { host: "2001:db8::12", port: 2222, user: "ops" };

test("missingFrom names the directors that lack the entry; with none it is present but undefined, so a refresh drops the stored list", () => {
  expect(missing(["root@198.51.100.11:22"])).toEqual({ missingFrom: ["root@198.51.100.11:22"] });
  const none = missing([]);
  // runtime/index.ts read() merges live over stored and drops undefined values: the key must be there to do so.
  expect(Object.keys(none)).toEqual(["missingFrom"]);
  expect(none.missingFrom).toBeUndefined();
});

test("an apply that skipped directors names them by connection key; one that skipped none says nothing", () => {
  expect(skipped([dir1, dir2])).toEqual({ missingFrom: ["root@198.51.100.11:22", "ops@[2001:db8::12]:2222"] });
  // No key: the outputs of an apply that reached every director hold no missingFrom (runtime/index.ts create, update).
  expect(skipped([])).toEqual({});
});

test("the expected live value on every director is no missingFrom: a stored list is drift", () => {
  expect(Object.keys(ON_EVERY_DIRECTOR)).toEqual(["missingFrom"]);
  expect(ON_EVERY_DIRECTOR.missingFrom).toBeUndefined();
});

test("hostDrift lists what the next apply runs on a host; with none it is present but undefined, and expected so", () => {
  expect(hostDrift(["ip addr add 198.51.100.46/32 dev lo"])).toEqual({
    hostDrift: ["ip addr add 198.51.100.46/32 dev lo"],
  });
  const none = hostDrift([]);
  expect(Object.keys(none)).toEqual(["hostDrift"]);
  expect(none.hostDrift).toBeUndefined();
  expect(HOST_WHOLE).toEqual(none);
});
