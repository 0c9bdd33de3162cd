/* eslint-disable @typescript-eslint/no-require-imports */
// Facts about code run by the SDK's dynamic-provider host: how `require` resolves inside a serialized provider
// (loaded with require-from-string, filename ""), and how big `__provider` is when methods only `require` a package.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { makeUrn, PropertyMap, ProviderHost } from "../../harness/provider-host";
import { serializeProvider } from "../../harness/serialize";

jest.setTimeout(60000);

const repoRoot = path.resolve(__dirname, "../../..");

/** create() reports how `require(request)` fares inside the host. */
const probe: dynamic.ResourceProvider = {
  async create(inputs) {
    const outs: Record<string, unknown> = { cwd: process.cwd(), searchPaths: require.resolve.paths(inputs.request) };
    try {
      outs.resolved = require.resolve(inputs.request);
      outs.name = require(inputs.request).name;
    } catch (e) {
      outs.error = `${(e as { code?: string }).code}: ${(e as Error).message.split("\n")[0]}`;
    }
    return { id: "probe", outs };
  },
};

async function probeIn(cwd: string, request: string): Promise<PropertyMap> {
  const host = await ProviderHost.start({ cwd });
  try {
    await host.configure();
    const r = await host.create(makeUrn("probe"), { request, __provider: await serializeProvider(probe) });
    return r.outputs;
  } finally {
    await host.stop();
  }
}

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "harness-selfref-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

test("(a) package self-reference does NOT work inside the host: only node_modules from the cwd up are searched", async () => {
  // A fresh program folder whose package.json has a name and exports, and no node_modules link to itself.
  const prog = path.join(tmp, "noself");
  fs.mkdirSync(prog);
  fs.writeFileSync(
    path.join(prog, "package.json"),
    JSON.stringify({ name: "noself-demo", exports: { "./package.json": "./package.json" } }),
  );
  const outs = await probeIn(prog, "noself-demo/package.json");
  expect(outs.cwd).toBe(fs.realpathSync(prog));
  expect(outs.error).toMatch(/^MODULE_NOT_FOUND: Cannot find module 'noself-demo\/package.json'/);
  expect((outs.searchPaths as string[])[0]).toBe(path.join(fs.realpathSync(prog), "node_modules"));
});

test("(a) in this checkout, lvs-pulumi/runtime resolves in the host through the link `npm ci` makes", async () => {
  const outs = await probeIn(repoRoot, "lvs-pulumi/package.json");
  expect(outs.error).toBeUndefined();
  expect(outs.name).toBe("lvs-pulumi");
  expect(fs.realpathSync(outs.resolved as string)).toBe(path.join(repoRoot, "package.json"));
});

test("(a) a node_modules/<name> symlink to the package makes it resolve, exports map applied", async () => {
  const prog = path.join(tmp, "prog");
  fs.mkdirSync(prog);
  const pkg = { name: "selfref-demo", exports: { "./package.json": "./package.json", "./x": "./x.js" } };
  fs.writeFileSync(path.join(prog, "package.json"), JSON.stringify(pkg));
  fs.writeFileSync(path.join(prog, "x.js"), "exports.name = 'x';");
  expect((await probeIn(prog, "selfref-demo/package.json")).error).toMatch(/^MODULE_NOT_FOUND/);
  fs.mkdirSync(path.join(prog, "node_modules"));
  fs.symlinkSync("..", path.join(prog, "node_modules", "selfref-demo"), "dir");
  const ok = await probeIn(prog, "selfref-demo/package.json");
  expect(ok.name).toBe("selfref-demo");
  expect(fs.realpathSync(ok.resolved as string)).toBe(fs.realpathSync(path.join(prog, "package.json")));
  expect((await probeIn(prog, "selfref-demo/x")).name).toBe("x");
  // The exports map is enforced: unexported subpaths fail.
  expect((await probeIn(prog, "selfref-demo/x.js")).error).toMatch(/^ERR_PACKAGE_PATH_NOT_EXPORTED/);
});

test("(b) __provider size when every method only does require('lvs-pulumi/runtime')", async () => {
  const thin: dynamic.ResourceProvider = {
    async check(olds, news) {
      return require("lvs-pulumi/runtime").check(olds, news);
    },
    async diff(id, olds, news) {
      return require("lvs-pulumi/runtime").diff(id, olds, news);
    },
    async create(inputs) {
      return require("lvs-pulumi/runtime").create(inputs);
    },
    async read(id, props) {
      return require("lvs-pulumi/runtime").read(id, props);
    },
    async update(id, olds, news) {
      return require("lvs-pulumi/runtime").update(id, olds, news);
    },
    async delete(id, props) {
      return require("lvs-pulumi/runtime").delete(id, props);
    },
  };
  const text = await serializeProvider(thin);
  const bytes = Buffer.byteLength(text);
  fs.writeFileSync(path.join(tmp, "thin-provider.js"), text);
  expect(text.match(/require\("lvs-pulumi\/runtime"\)/g)).toHaveLength(6);
  expect(bytes).toBeGreaterThan(1000);
  expect(bytes).toBeLessThan(4000);
});
