// test/harness/program.ts against the SDK's real provider host, with a trivial file provider: a program's
// resources are created, kept, updated and (when dropped from the program) deleted; outputs flow to dependents.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { deployProgram, destroyStack } from "../../harness/program";
import { ProviderHost } from "../../harness/provider-host";
import { makeFileProvider } from "./file-provider";

jest.setTimeout(60000);

class File extends pulumi.dynamic.Resource {
  declare readonly content: pulumi.Output<string>;
  declare readonly token: pulumi.Output<string | undefined>;
  constructor(name: string, args: Record<string, pulumi.Input<unknown>>, opts?: pulumi.CustomResourceOptions) {
    super(makeFileProvider("p"), name, { ...args, tag: undefined }, opts);
  }
}

class Pair extends pulumi.ComponentResource {
  readonly second: File;
  constructor(name: string, dir: string, content: string, token: pulumi.Output<string>, withSecond: boolean) {
    super("test:index:Pair", name);
    const first = new File(`${name}-first`, { dir, name: "first.txt", content, token }, { parent: this });
    // The second file's content is the first one's output: it can only exist once the first one is created.
    this.second = new File(
      `${name}-second`,
      { dir, name: withSecond ? "second.txt" : "other.txt", content: first.content.apply((c) => `after ${c}`) },
      { parent: this },
    );
  }
}

let host: ProviderHost;
let dir: string;
let statePath: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "program-harness-"));
  statePath = path.join(dir, "state.json");
  host = await ProviderHost.start({ cwd: path.resolve(__dirname, "../../..") });
});
afterAll(async () => {
  await host?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function program(content: string, options: { second?: boolean; third?: boolean } = {}) {
  return () => {
    const token = new pulumi.Config("t").requireSecret("token");
    const pair = new Pair("pair", dir, content, token, options.second ?? true);
    if (options.third) new File("third", { dir, name: "third.txt", content: "3" });
    return { second: pair.second.content, token: pulumi.secret("x") };
  };
}

const run = (content: string, options?: { second?: boolean; third?: boolean }) =>
  deployProgram(program(content, options), {
    host,
    statePath,
    config: { "t:token": "s3cret" },
    secretConfig: ["t:token"],
  });
const read = (name: string) => fs.readFileSync(path.join(dir, name), "utf8");

test("a first run creates each resource with its dependencies' real outputs; secrets reach the provider plain", async () => {
  const result = await run("one", { third: true });
  expect(result.summary.created).toHaveLength(3);
  expect(read("first.txt")).toBe("one");
  expect(read("second.txt")).toBe("after one");
  expect(result.outputs).toEqual({ second: "after one", token: "x" });
  expect(result.secretOutputs).toEqual(["token"]);
  // State keeps the order the provider calls ran in: a dependency before its dependents.
  const urns = Object.keys(result.state).filter((urn) => urn.includes("Pair$"));
  expect(urns).toEqual([
    "urn:pulumi:test::lvs-pulumi::test:index:Pair$pulumi-nodejs:dynamic:Resource::pair-first",
    "urn:pulumi:test::lvs-pulumi::test:index:Pair$pulumi-nodejs:dynamic:Resource::pair-second",
  ]);
  expect(result.state).toHaveProperty(["urn:pulumi:test::lvs-pulumi::pulumi-nodejs:dynamic:Resource::third"]);
  const first = result.state[urns[0]];
  expect(first.outputs.token).toBe("s3cret");
  expect(first.secretOutputs).toEqual(["token"]);
  expect(host.stdout).toContain("file-provider[p] create first.txt token=string");
});

test("a second run changes nothing", async () => {
  const result = await run("one", { third: true });
  expect(result.summary).toMatchObject({ created: [], updated: [], replaced: [], deleted: [] });
  expect(result.summary.unchanged).toHaveLength(3);
});

test("an update flows to the dependent; a dropped resource is deleted; a renamed one replaced", async () => {
  const result = await run("two", { second: false });
  expect(result.summary.updated.map((u) => u.split("::").pop())).toEqual(["pair-first"]);
  expect(result.summary.replaced.map((u) => u.split("::").pop())).toEqual(["pair-second"]);
  expect(result.summary.deleted.map((u) => u.split("::").pop())).toEqual(["third"]);
  // The key file opens the secrets sealed in state (the first file's token).
  expect(fs.readdirSync(dir).sort()).toEqual(["first.txt", "other.txt", "state.json", "state.json.key"]);
  expect(read("other.txt")).toBe("after two");
});

test("destroy deletes everything in state", async () => {
  const summary = await destroyStack({ host, statePath });
  expect(summary.deleted.length).toBeGreaterThanOrEqual(2);
  expect(fs.readdirSync(dir).sort()).toEqual(["state.json", "state.json.key"]);
});
