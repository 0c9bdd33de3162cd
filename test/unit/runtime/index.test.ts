// The glue the SDK's dynamic-provider host calls. check and diff read no host; create, read, update and remove are
// tested here with the kind's own host operations stubbed (what those do on hosts: test/e2e).
import * as pulumi from "@pulumi/pulumi";
import { KINDS } from "../../../provider/kinds/registry";
import { HostUnreachableError } from "../../../provider/remote";
import { log } from "../../../provider/remote";
import * as runtime from "../../../provider/runtime/index";
import { check, create, diff, read, remove, update } from "../../../provider/runtime/index";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const URN = "urn:pulumi:test::lvs-pulumi::pulumi-nodejs:dynamic/lvs:VirtualService::web";
const dir1 = { host: "198.51.100.11", insecureSkipHostKeyCheck: true };
const dir2 = { host: "198.51.100.12", insecureSkipHostKeyCheck: true };
const service = { directors: [dir1], protocol: "tcp", address: "198.51.100.40", port: 80 };
const realServer = { directors: [dir1], service, address: "198.51.100.21" };
const pair = {
  primary: { connection: dir1, interface: "eth0" },
  backup: { connection: dir2, interface: "eth0" },
  virtualRouterId: 51,
  vips: ["198.51.100.40"],
};

let warned: { message: string; urn?: string }[];

beforeEach(() => {
  warned = [];
  jest.spyOn(pulumi.log, "warn").mockImplementation(async (message, resource) => {
    const urn = resource && (await new Promise<string>((resolve) => resource.urn.apply(resolve)));
    warned.push({ message, ...(urn ? { urn } : {}) });
  });
  // No host is reached: a kind's host operations fail the test unless it stubs them.
  for (const kind of Object.values(KINDS)) {
    jest.spyOn(kind, "apply").mockRejectedValue(new Error("unexpected apply"));
    jest.spyOn(kind, "read").mockRejectedValue(new Error("unexpected read"));
    jest.spyOn(kind, "remove").mockRejectedValue(new Error("unexpected remove"));
  }
});
afterEach(() => jest.restoreAllMocks());

/** Lets the pending log calls settle (they resolve the URN of their resource). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

test("the module exports the six functions every serialized provider calls (keep them stable)", () => {
  const functions = Object.entries(runtime).filter(([, v]) => typeof v === "function");
  expect(functions.map(([name]) => name).sort()).toEqual(["check", "create", "diff", "read", "remove", "update"]);
});

describe("check", () => {
  test("bad input fails with each field and its value named; the inputs come back as given", async () => {
    const news = { ...realServer, weight: 70000, forwarding: "magic", __provider: "p" };
    const result = await check("realServer", {}, news);
    expect(result.inputs).toBe(news);
    expect(result.failures).toEqual([
      { property: "weight", reason: expect.stringMatching(/^weight: 70000 .*65535/) },
      { property: "forwarding", reason: expect.stringMatching(/^forwarding: "magic" /) },
    ]);
    expect(KINDS.realServer.apply).not.toHaveBeenCalled();
  });

  test("a secret's bad value is not shown, nor a secret beside the bad field", async () => {
    const connection = { ...dir1, password: 1234567 };
    const result = await check("director", {}, { connection, timeouts: "tcp=900" });
    expect(result.failures.map((f) => f.property).sort()).toEqual(["connection.password", "timeouts"]);
    expect(JSON.stringify(result.failures)).not.toContain("1234567");
    const unpinned = await check("director", {}, { connection: { host: "198.51.100.11", password: "hunter2" } });
    expect(unpinned.failures).toEqual([{ property: "connection.hostKey", reason: expect.stringContaining("pin") }]);
    expect(JSON.stringify(unpinned.failures)).not.toContain("hunter2");
  });

  test.each([
    ["director", { connection: dir1 }, { installPackages: false, sysctls: expect.any(Object) }],
    ["virtualService", service, { scheduler: "wlc", bindVip: true }],
    ["realServer", realServer, { weight: 1, upperThreshold: 0, forwarding: "dr" }],
    ["haPair", pair, { preempt: true, advertIntervalSeconds: 1 }],
  ] as const)(
    "good %s inputs come back checked (defaults filled), with __provider and __urn",
    async (kind, inputs, filled) => {
      const result = await check(kind, {}, { ...inputs, __provider: "p", __urn: URN });
      expect(result.failures).toEqual([]);
      expect(result.inputs).toMatchObject({ ...filled, __provider: "p", __urn: URN });
      const withoutUrn = await check(kind, {}, { ...inputs, __provider: "p" });
      expect(withoutUrn.inputs).not.toHaveProperty("__urn");
      expect(withoutUrn.inputs).toHaveProperty("__provider", "p");
    },
  );

  test("inputs holding a value not computed yet (preview) pass unchecked, as given", async () => {
    const news = { ...realServer, address: UNKNOWN, weight: 70000 };
    expect(await check("realServer", {}, news)).toEqual({ inputs: news, failures: [] });
    const nested = { ...pair, vips: [UNKNOWN], virtualRouterId: 0 };
    expect(await check("haPair", {}, nested)).toEqual({ inputs: nested, failures: [] });
  });

  test("adopt: true is told in the preview, as a warning of the resource, only for directors it adds", async () => {
    await check("virtualService", {}, { ...service, adopt: true, __urn: URN });
    await settled();
    expect(warned).toEqual([{ message: expect.stringContaining("that 198.51.100.11:22 already has"), urn: URN }]);
    warned = [];
    const olds = { ...service, adopt: true, __urn: URN, __provider: "p" };
    await check("virtualService", olds, { ...olds, scheduler: "rr" });
    await settled();
    expect(warned).toEqual([]);
  });
});

describe("diff", () => {
  test.each([
    ["director", [], { connection: dir1 }, { connection: dir2 }],
    ["virtualService", ["port"], service, { ...service, port: 443 }],
    ["virtualService", [], service, { ...service, scheduler: "rr" }],
    ["realServer", ["address"], realServer, { ...realServer, address: "198.51.100.22", weight: 2 }],
    ["realServer", ["service"], realServer, { ...realServer, service: { ...service, port: 8080 } }],
    ["haPair", [], pair, { ...pair, virtualRouterId: 52 }],
  ] as const)("a changed %s: a change, replacing %j, never deleting first", async (kind, replaces, olds, news) => {
    expect(await diff(kind, "id", olds, news)).toEqual({ changes: true, replaces, deleteBeforeReplace: false });
  });

  test("another __provider (a new library version) or __urn (a renamed parent) is no change", async () => {
    const olds = { ...service, __provider: "v1", __urn: URN };
    const news = { ...service, __provider: "v2", __urn: URN.replace("::web", "::site$web") };
    expect(await diff("virtualService", "id", olds, news)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });
});

describe("create, update, read, remove", () => {
  test("create applies the checked inputs as the resource's URN; outputs: inputs, computed values, __urn", async () => {
    const apply = jest.spyOn(KINDS.virtualService, "apply").mockImplementation(async () => {
      log().warn("working");
      return { missingFrom: ["root@198.51.100.12:22"] };
    });
    const result = await create("virtualService", { ...service, __provider: "p", __urn: URN });
    const [inputs, actor] = apply.mock.calls[0];
    expect(inputs).toMatchObject({ ...service, scheduler: "wlc", directors: [{ ...dir1, port: 22 }] });
    expect(inputs).not.toHaveProperty("__provider");
    expect(inputs).not.toHaveProperty("__urn");
    expect(actor).toEqual({ urn: URN });
    expect(result.id).toBe(KINDS.virtualService.id(inputs));
    expect(result.outs).toMatchObject({ ...service, scheduler: "wlc", missingFrom: ["root@198.51.100.12:22"] });
    expect(result.outs.__urn).toBe(URN);
    expect(result.outs).not.toHaveProperty("__provider");
    await settled();
    expect(warned).toEqual([{ message: "working", urn: URN }]);
  });

  test("a failed create undoes what it added, then fails with its own error (not the undo's)", async () => {
    jest.spyOn(KINDS.realServer, "apply").mockRejectedValue(new Error("ipvsadm: no such service"));
    const undo = jest.spyOn(KINDS.realServer, "remove").mockRejectedValue(new Error("undo failed too"));
    await expect(create("realServer", { ...realServer, __urn: URN })).rejects.toThrow("ipvsadm: no such service");
    expect(undo).toHaveBeenCalledWith(expect.objectContaining({ address: "198.51.100.21" }), { urn: URN, undo: true });
  });

  test("update applies the new inputs with the old ones as previous; a new URN keeps the former one", async () => {
    const apply = jest.spyOn(KINDS.director, "apply").mockResolvedValue({ kernelRelease: "6.1.0" });
    const olds = { connection: dir1, kernelRelease: "6.0.0", __urn: URN };
    const newUrn = `${URN}-renamed`;
    const result = await update("director", "id", olds, { connection: dir2, __urn: newUrn });
    const [inputs, actor, previous] = apply.mock.calls[0];
    expect(inputs.connection).toMatchObject(dir2);
    expect(previous).toMatchObject({ connection: dir1 });
    expect(previous).not.toHaveProperty("kernelRelease");
    expect(actor).toEqual({ urn: newUrn, formerUrn: URN });
    expect(result.outs).toMatchObject({ connection: dir2, kernelRelease: "6.1.0", __urn: newUrn });
    await update("director", "id", olds, { connection: dir2, __urn: URN });
    expect(apply.mock.calls[1][1]).toEqual({ urn: URN });
  });

  test("read merges live values over the stored ones; an absent live value removes the stored one", async () => {
    jest.spyOn(KINDS.virtualService, "read").mockResolvedValue({ scheduler: "rr", persistence: undefined });
    const stored = { ...service, scheduler: "wlc", persistence: { timeoutSeconds: 300 }, __provider: "p", __urn: URN };
    const result = await read("virtualService", "vs-id", stored);
    expect(result.id).toBe("vs-id");
    expect(result.props).toMatchObject({ ...service, scheduler: "rr", __urn: URN });
    expect(result.props).not.toHaveProperty("persistence");
    expect(result.props).not.toHaveProperty("__provider");
  });

  test("read of an entry gone from the host: no id, no props (the engine drops it from state)", async () => {
    jest.spyOn(KINDS.realServer, "read").mockResolvedValue(undefined);
    expect(await read("realServer", "rs-id", realServer)).toEqual({ id: "", props: {} });
  });

  test("read with no host answering keeps the resource as last known and warns; other errors fail", async () => {
    const down = new HostUnreachableError("root@198.51.100.19:22", 10, new Error("connect ETIMEDOUT"));
    jest.spyOn(KINDS.director, "read").mockRejectedValueOnce(new Error("listing failed", { cause: down }));
    const stored = { connection: { ...dir1, host: "198.51.100.19" }, table: {}, __urn: URN };
    expect(await read("director", "d-id", stored)).toEqual({ id: "d-id", props: stored });
    await settled();
    expect(warned).toEqual([{ message: expect.stringContaining("host root@198.51.100.19:22 unreachable"), urn: URN }]);
    jest.spyOn(KINDS.director, "read").mockRejectedValueOnce(new Error("permission denied"));
    await expect(read("director", "d-id", stored)).rejects.toThrow("permission denied");
  });

  test("remove removes what the resource owns, from the stored inputs", async () => {
    const removal = jest.spyOn(KINDS.haPair, "remove").mockResolvedValue(undefined);
    await remove("haPair", "id", { ...pair, master: "198.51.100.11", __provider: "p", __urn: URN });
    const [inputs, actor] = removal.mock.calls[0];
    expect(inputs).toMatchObject({ virtualRouterId: 51, primary: { interface: "eth0" } });
    expect(inputs).not.toHaveProperty("master");
    expect(actor).toEqual({ urn: URN });
  });
});
