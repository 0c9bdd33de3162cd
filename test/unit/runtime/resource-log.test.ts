import * as pulumi from "@pulumi/pulumi";
import { asResource, connectLogToEngine, resourceLogger } from "../../../provider/runtime/resource-log";

const URN_A = "urn:pulumi:test::lvs-pulumi::pulumi-nodejs:dynamic/lvs:Director::dir1";
const URN_B = "urn:pulumi:test::lvs-pulumi::pulumi-nodejs:dynamic/lvs:Director::dir2";

/** Each log line as pulumi.log got it: level, message and the URN of its resource, if any. */
let lines: Promise<{ level: string; message: string; urn?: string }>[];

function record(level: "debug" | "info" | "warn") {
  const logged: typeof pulumi.log.warn = (message, resource) => {
    const urn = resource ? new Promise<string>((resolve) => resource.urn.apply(resolve)) : undefined;
    lines.push(Promise.resolve(urn).then((u) => ({ level, message, ...(u ? { urn: u } : {}) })));
    return Promise.resolve();
  };
  jest.spyOn(pulumi.log, level).mockImplementation(logged);
}

beforeEach(() => {
  lines = [];
  record("debug");
  record("info");
  record("warn");
});
afterEach(() => {
  jest.restoreAllMocks();
});

test("a line logged during an operation belongs to its resource; concurrent operations each to their own", async () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const work = (message: string) => async () => {
    await tick();
    resourceLogger.warn(`${message} 1`);
    await tick();
    resourceLogger.info(`${message} 2`);
    return message;
  };
  expect(await Promise.all([asResource(URN_A, work("a")), asResource(URN_B, work("b"))])).toEqual(["a", "b"]);
  resourceLogger.info("outside");
  expect(await Promise.all(lines)).toEqual([
    { level: "warn", message: "a 1", urn: URN_A },
    { level: "warn", message: "b 1", urn: URN_B },
    { level: "info", message: "a 2", urn: URN_A },
    { level: "info", message: "b 2", urn: URN_B },
    { level: "info", message: "outside" },
  ]);
});

test("without a URN (state from before __urn, or none given) the operation runs, its lines unattributed", async () => {
  for (const urn of [undefined, "", 42]) {
    await asResource(urn, async () => resourceLogger.warn(`urn ${String(urn)}`));
  }
  expect(await Promise.all(lines)).toEqual([
    { level: "warn", message: "urn undefined" },
    { level: "warn", message: "urn " },
    { level: "warn", message: "urn 42" },
  ]);
  await expect(asResource(URN_A, () => Promise.reject(new Error("failed")))).rejects.toThrow("failed");
});

test("debug lines (every remote command) go to the engine at its debug level, for `pulumi up --debug`", async () => {
  await asResource(URN_A, async () => resourceLogger.debug("ipvsadm -Ln"));
  expect(await Promise.all(lines)).toEqual([{ level: "debug", message: "ipvsadm -Ln", urn: URN_A }]);
});

describe("connectLogToEngine", () => {
  const argv = process.argv;
  const engine = process.env.PULUMI_NODEJS_ENGINE;
  afterEach(() => {
    process.argv = argv;
    if (engine === undefined) delete process.env.PULUMI_NODEJS_ENGINE;
    else process.env.PULUMI_NODEJS_ENGINE = engine;
  });
  const runAs = (script: string, address?: string) => {
    process.argv = ["/usr/bin/node", script, ...(address ? [address] : [])];
    connectLogToEngine();
    return process.env.PULUMI_NODEJS_ENGINE;
  };
  const host = "/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider";

  test("in the SDK's dynamic-provider host, the engine address it was given is where the SDK logs", () => {
    delete process.env.PULUMI_NODEJS_ENGINE;
    expect(runAs(`${host}/index.js`, "127.0.0.1:40001")).toBe("127.0.0.1:40001");
    delete process.env.PULUMI_NODEJS_ENGINE;
    expect(runAs(host, "127.0.0.1:40002")).toBe("127.0.0.1:40002");
  });

  test("elsewhere, or with an engine address already set, nothing changes", () => {
    delete process.env.PULUMI_NODEJS_ENGINE;
    expect(runAs("/p/node_modules/.bin/jest", "127.0.0.1:40003")).toBeUndefined();
    expect(runAs(`${host}/index.js`)).toBeUndefined();
    expect(runAs(`${host}-other/index.js`, "127.0.0.1:40004")).toBeUndefined();
    process.env.PULUMI_NODEJS_ENGINE = "127.0.0.1:40005";
    expect(runAs(`${host}/index.js`, "127.0.0.1:40006")).toBe("127.0.0.1:40005");
  });
});
