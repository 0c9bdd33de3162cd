import { kindOf } from "../../../provider/kinds/registry";
import { expectedKeepalived } from "../../../provider/plan/ha-pair";
import { inputsOnly, diffResource } from "../../../provider/runtime/diff";
import { haPairInputsSchema } from "../../../provider/schemas/ha-pair";

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
    // Another address may be another name of the same machine: an update, which gives up the old host only when it
    // is another machine (operations/directors.ts sameMachine).
    expect(diffResource("director", olds, { connection: { host: "b", port: 22 } })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(diffResource("director", olds, { connection: { host: "a", port: 22, user: "ops", sudo: true } })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });
});

test("inputsOnly drops the provider and what the provider computed for that kind only", () => {
  const props = { __provider: "p", connection: { host: "a" }, table: {}, weight: 1 };
  expect(inputsOnly(kindOf("director"), props)).toEqual({ connection: { host: "a" }, weight: 1 });
  expect(inputsOnly(kindOf("realServer"), props)).toEqual({ connection: { host: "a" }, table: {}, weight: 1 });
});

test("an HA pair is updated in place, also on another member or VRID (a replacement stops both members)", () => {
  const pair = {
    primary: { connection: { host: "198.51.100.11", port: 22 }, interface: "eth0", priority: 150 },
    backup: { connection: { host: "198.51.100.12", port: 22 }, interface: "eth0", priority: 100 },
    virtualRouterId: 51,
    vips: [{ address: "198.51.100.40" }],
    master: "198.51.100.11",
  };
  const moved = { ...pair, backup: { ...pair.backup, connection: { host: "198.51.100.13", port: 22 } } };
  expect(diffResource("haPair", pair, moved)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  expect(diffResource("haPair", pair, { ...pair, virtualRouterId: 52 })).toEqual({
    changes: true,
    replaces: [],
    deleteBeforeReplace: false,
  });
  expect(diffResource("haPair", pair, { ...pair, vips: [{ address: "198.51.100.41" }] })).toEqual({
    changes: true,
    replaces: [],
    deleteBeforeReplace: false,
  });
  expect(diffResource("haPair", pair, { ...pair, master: "198.51.100.12" }).changes).toBe(false);
});

test("a service or real server that refresh found missing from one of its directors shows a change", () => {
  const service = {
    directors: [{ host: "198.51.100.11" }, { host: "198.51.100.12" }],
    protocol: "tcp",
    address: "198.51.100.40",
    port: 80,
  };
  const missing = { missingFrom: ["root@198.51.100.12:22"] };
  expect(diffResource("virtualService", service, service).changes).toBe(false);
  expect(diffResource("virtualService", { ...service, ...missing }, service)).toEqual({
    changes: true,
    replaces: [],
    deleteBeforeReplace: false,
  });
  const rs = { directors: service.directors, service, address: "198.51.100.21" };
  expect(diffResource("realServer", { ...rs, ...missing }, rs).changes).toBe(true);
  expect(inputsOnly(kindOf("realServer"), { ...rs, ...missing })).toEqual(rs);
});

test("an HA pair whose member host is written differently (case, IPv6 form, default port) is the same pair", () => {
  const member = (host: string, port?: number) => ({
    connection: { host, ...(port ? { port } : {}), insecureSkipHostKeyCheck: true },
    interface: "eth0",
  });
  const pair = {
    primary: member("dir1.example"),
    backup: member("2001:db8::12"),
    virtualRouterId: 51,
    vips: ["198.51.100.40"],
  };
  const rewritten = { ...pair, primary: member("DIR1.Example", 22), backup: member("2001:DB8:0::0:12") };
  expect(diffResource("haPair", pair, rewritten)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  expect(diffResource("haPair", pair, { ...pair, primary: member("dir1.example", 2222) }).replaces).toEqual([]);
});

test("an HA pair whose live keepalived drifted (hand edit, stopped) shows a change; unknown inputs do not", () => {
  const inputs = {
    primary: { connection: { host: "198.51.100.11", insecureSkipHostKeyCheck: true }, interface: "eth0" },
    backup: { connection: { host: "198.51.100.12", insecureSkipHostKeyCheck: true }, interface: "eth0" },
    virtualRouterId: 51,
    vips: ["198.51.100.40"],
  };
  const keepalived = expectedKeepalived(haPairInputsSchema().parse(inputs));
  const stored = { ...inputs, master: "198.51.100.11", keepalived };
  expect(diffResource("haPair", stored, inputs).changes).toBe(false);
  const stopped = { ...stored, keepalived: { ...keepalived, backup: `${keepalived.backup} stopped` } };
  expect(diffResource("haPair", stopped, inputs)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  const edited = { ...stored, keepalived: { ...keepalived, primary: "sha256:0000000000000000" } };
  expect(diffResource("haPair", edited, inputs).changes).toBe(true);
  const unknown = { ...inputs, vips: ["04da6b54-80e4-46f7-96ec-b56ff0331ba9"] };
  expect(diffResource("haPair", stopped, unknown).changes).toBe(true); // vips differ: a change either way
  expect(diffResource("haPair", { ...stopped, vips: unknown.vips }, unknown).changes).toBe(false);
});

test("an HA pair with a member listed as down is a change until the live member holds; after the outage, again", () => {
  const inputs = {
    primary: { connection: { host: "198.51.100.11", insecureSkipHostKeyCheck: true }, interface: "eth0" },
    backup: { connection: { host: "198.51.100.12", insecureSkipHostKeyCheck: true }, interface: "eth0" },
    virtualRouterId: 51,
    vips: ["198.51.100.40"],
  };
  const pair = haPairInputsSchema().parse(inputs);
  const declared = { ...inputs, keepalived: expectedKeepalived(pair) };
  const holding = { ...inputs, keepalived: expectedKeepalived(pair, "primary") };
  expect(holding.keepalived.primary).toBe("known down");
  expect(holding.keepalived.backup).not.toBe(declared.keepalived.backup);
  try {
    process.env.LVS_PULUMI_HOSTS_DOWN = "198.51.100.11";
    expect(diffResource("haPair", declared, inputs).changes).toBe(true);
    expect(diffResource("haPair", holding, inputs).changes).toBe(false);
  } finally {
    delete process.env.LVS_PULUMI_HOSTS_DOWN;
  }
  expect(diffResource("haPair", holding, inputs).changes).toBe(true);
  expect(diffResource("haPair", declared, inputs).changes).toBe(false);
});

describe("replacement is decided on the entry's key on the host, not on how the inputs are written", () => {
  const directors = [{ host: "198.51.100.11", port: 22, insecureSkipHostKeyCheck: true }];
  const rs = {
    directors,
    service: { protocol: "tcp", address: "2001:db8::40", port: 80 },
    address: "2001:db8::21",
  };

  test("a real server's port written out, its RIP or VIP in another case or form: same key, no replacement", () => {
    expect(diffResource("realServer", rs, { ...rs, port: 80 }).replaces).toEqual([]);
    expect(diffResource("realServer", rs, { ...rs, address: "2001:DB8:0::21" }).replaces).toEqual([]);
    const upper = { ...rs, service: { ...rs.service, address: "2001:DB8::40" } };
    expect(diffResource("realServer", rs, upper).replaces).toEqual([]);
    expect(diffResource("realServer", rs, { ...rs, port: 8080, forwarding: "nat" }).replaces).toEqual(["port"]);
  });

  test("a service's VIP in upper case or a fwmark's family written out: same key, no replacement", () => {
    const vs = { directors, protocol: "tcp", address: "2001:db8::40", port: 80 };
    expect(diffResource("virtualService", vs, { ...vs, address: "2001:DB8::40" }).replaces).toEqual([]);
    const fwm = { directors, fwmark: 5 };
    expect(diffResource("virtualService", fwm, { ...fwm, family: "inet" }).replaces).toEqual([]);
    expect(diffResource("virtualService", fwm, { ...fwm, family: "inet6" }).replaces).toEqual(["family"]);
  });
});
