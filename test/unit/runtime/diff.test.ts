import { inputsOnly, diffResource } from "../../../provider/runtime/diff";

describe("diffResource", () => {
  const service = {
    directors: [{ host: "198.51.100.11", port: 22 }],
    protocol: "tcp",
    address: "198.51.100.40",
    port: 80,
    scheduler: "wlc",
  };

  test("nothing changed, old provider text: no changes", () => {
    expect(
      diffResource("virtualService", { ...service, __provider: "old" }, { ...service, __provider: "new" }),
    ).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  test("scheduler and persistence update in place", () => {
    const next = { ...service, scheduler: "rr", persistence: { timeoutSeconds: 300 } };
    expect(diffResource("virtualService", service, next)).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  test.each([
    ["address", "198.51.100.41"],
    ["port", 443],
    ["protocol", "udp"],
  ])("a new %s replaces the service", (key, value) => {
    expect(diffResource("virtualService", service, { ...service, [key]: value }).replaces).toEqual([key]);
  });

  test("a real server's weight, thresholds and forwarding update; its address or port replaces", () => {
    const rs = { address: "198.51.100.21", port: 80, weight: 1, forwarding: "dr", service: { protocol: "tcp" } };
    expect(
      diffResource("realServer", rs, { ...rs, weight: 5, upperThreshold: 10, forwarding: "tun" }).replaces,
    ).toEqual([]);
    expect(diffResource("realServer", rs, { ...rs, address: "198.51.100.22" }).replaces).toEqual(["address"]);
  });

  test("computed director facts and key order do not count as changes", () => {
    const table = { "tcp:198.51.100.40:80": { scheduler: "rr", realServers: {} } };
    const olds = { connection: { port: 22, host: "a" }, kernelRelease: "6.1.0", schedulers: ["rr"], table };
    expect(diffResource("director", olds, { connection: { host: "a", port: 22 } }).changes).toBe(false);
    expect(diffResource("director", olds, { ...olds, __provider: "v2", table: {} }).changes).toBe(false);
    expect(diffResource("director", olds, { connection: { host: "b", port: 22 } }).replaces).toEqual(["connection"]);
    expect(diffResource("director", olds, { connection: { host: "a", port: 22, user: "ops", sudo: true } })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });
});

test("inputsOnly drops the provider and what the provider computed for that kind only", () => {
  const props = { __provider: "p", connection: { host: "a" }, table: {}, weight: 1 };
  expect(inputsOnly("director", props)).toEqual({ connection: { host: "a" }, weight: 1 });
  expect(inputsOnly("realServer", props)).toEqual({ connection: { host: "a" }, table: {}, weight: 1 });
});
