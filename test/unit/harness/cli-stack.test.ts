// The CLI-faithful engine on small throw-away projects with a file-writing dynamic provider: where the program runs
// (getPwdMain), what the program is given (config, secrets, dry run), step order, preview vs up, state, destroy.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { programLocation, readProject } from "../../harness/cli/project";
import { describeStep, PulumiStack, StackRunError } from "../../harness/cli/stack";

jest.setTimeout(120_000);

const repoRoot = path.resolve(__dirname, "../../..");
let tmp: string;

// A JavaScript program: one file per resource, written by an inline dynamic provider; it logs through the SDK and
// exports what it saw of its config and of the run.
const PROGRAM = `
const fs = require("fs");
const path = require("path");
const pulumi = require("@pulumi/pulumi");
const provider = {
  async check(olds, news) {
    const failures = news.content === "bad" ? [{ property: "content", reason: "content: \\"bad\\" is not allowed" }] : [];
    return { inputs: news, failures };
  },
  async diff(id, olds, news) {
    return { changes: olds.content !== news.content || olds.name !== news.name, replaces: olds.name !== news.name ? ["name"] : [] };
  },
  async create(inputs) {
    const file = path.join(inputs.dir, inputs.name);
    require("fs").writeFileSync(file, inputs.content);
    return { id: file, outs: { ...inputs, size: inputs.content.length } };
  },
  async update(id, olds, news) {
    require("fs").writeFileSync(id, news.content);
    return { outs: { ...news, size: news.content.length } };
  },
  async delete(id) {
    require("fs").rmSync(id, { force: true });
  },
};
class File extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    super(provider, name, { size: undefined, ...args }, opts, "test", "File");
  }
}
const config = new pulumi.Config("demo");
const dir = path.resolve(pulumi.getRootDirectory(), config.require("dir"));
const files = config.requireObject("files");
// A renamed key with its former name: the resource is the same (aliases), and so is its file.
const formerNames = config.getObject("formerNames") || {};
const made = Object.entries(files).map(([name, content]) => {
  const former = formerNames[name];
  return new File(name, { dir, name: (former || name) + ".txt", content }, former ? { aliases: [{ name: former }] } : {});
});
pulumi.log.info("program ran in " + process.cwd());
module.exports = {
  cwd: process.cwd(),
  dryRun: pulumi.runtime.isDryRun(),
  token: config.requireSecret("token"),
  sizes: pulumi.all(made.map((f) => f.size)),
};
`;

interface Demo {
  root: string;
  data: string;
  stack: PulumiStack;
  lines: string[];
}

/** A project folder: Pulumi.yaml with the given `main`, the program where main says, node_modules from the repo. */
function project(main: string | undefined, programPath: string, files: Record<string, string>): Demo {
  const root = fs.mkdtempSync(path.join(tmp, "project-"));
  fs.writeFileSync(
    path.join(root, "Pulumi.yaml"),
    `name: demo\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n${main ? `main: ${main}\n` : ""}`,
  );
  fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "demo", main: "index.js" }));
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(root, "node_modules"), "dir");
  fs.mkdirSync(path.dirname(path.join(root, programPath)), { recursive: true });
  fs.writeFileSync(path.join(root, programPath), PROGRAM);
  fs.mkdirSync(path.join(root, "data"));
  fs.writeFileSync(
    path.join(root, "Pulumi.dev.yaml"),
    `config:\n  demo:dir: data\n  demo:files:\n${Object.entries(files)
      .map(([k, v]) => `    ${k}: ${v}\n`)
      .join("")}`,
  );
  const lines: string[] = [];
  const stack = new PulumiStack({
    root,
    stack: "dev",
    statePath: path.join(root, "state.json"),
    secretConfig: { "demo:token": "s3cr3t-token" },
    print: (line) => lines.push(line),
  });
  return { root, data: path.join(root, "data"), stack, lines };
}

function setFiles(demo: Demo, files: Record<string, string>, formerNames: Record<string, string> = {}): void {
  const entries = Object.entries(files).map(([k, v]) => `    ${k}: ${v}\n`);
  const formers = Object.entries(formerNames).map(([k, v]) => `    ${k}: ${v}\n`);
  fs.writeFileSync(
    path.join(demo.root, "Pulumi.dev.yaml"),
    `config:\n  demo:dir: data\n  demo:files:\n${entries.join("")}` +
      (formers.length > 0 ? `  demo:formerNames:\n${formers.join("")}` : ""),
  );
}

function listing(dir: string): Record<string, string> {
  return Object.fromEntries(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), "utf8")]));
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cli-stack-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("where the CLI runs the program (getPwdMain)", () => {
  test("no main: the project root and '.'; a folder: that folder and '.'; a file: its folder and its name", () => {
    const root = fs.mkdtempSync(path.join(tmp, "where-"));
    fs.mkdirSync(path.join(root, "stacks"));
    fs.writeFileSync(path.join(root, "stacks", "index.ts"), "");
    const at = (main?: string) => programLocation({ root, name: "x", runtime: { name: "nodejs", options: {} }, main });
    expect(at()).toEqual({ pwd: root, entryPoint: "." });
    expect(at("stacks/")).toEqual({ pwd: path.join(root, "stacks"), entryPoint: "." });
    expect(at("stacks/index.ts")).toEqual({ pwd: path.join(root, "stacks"), entryPoint: "index.ts" });
    expect(() => at("nowhere.ts")).toThrow(/project 'main' could not be read/);
  });

  test("this repository's Pulumi.yaml runs stacks/index.ts, in stacks/, with a tsconfig there", () => {
    const location = programLocation(readProject(repoRoot));
    expect(location).toEqual({ pwd: path.join(repoRoot, "stacks"), entryPoint: "index.ts" });
    expect(fs.existsSync(path.join(location.pwd, "tsconfig.json"))).toBe(true);
  });
});

describe("a project run as the CLI runs it", () => {
  test("preview plans, up creates, a second up changes nothing, then update, replace, delete; destroy", async () => {
    const demo = project("src/index.js", "src/index.js", { a: "A1", b: "B1" });

    const preview = await demo.stack.preview();
    expect(preview.steps.map(describeStep)).toEqual(["+ test:File a create", "+ test:File b create"]);
    expect(listing(demo.data)).toEqual({});
    expect(preview.outputs).toMatchObject({ dryRun: true, cwd: path.join(demo.root, "src") });
    expect(fs.existsSync(path.join(demo.root, "state.json"))).toBe(false);

    const up = await demo.stack.up();
    expect(up.steps.map(describeStep)).toEqual(["+ test:File a create", "+ test:File b create"]);
    expect(listing(demo.data)).toEqual({ "a.txt": "A1", "b.txt": "B1" });
    expect(up.outputs).toEqual({
      cwd: path.join(demo.root, "src"),
      dryRun: false,
      token: "s3cr3t-token",
      sizes: [2, 2],
    });
    expect(up.secretOutputs).toEqual(["token"]);
    expect(up.logs).toContainEqual({
      severity: "info",
      message: `program ran in ${path.join(demo.root, "src")}`,
      urn: "",
    });
    expect(demo.lines.join("\n")).toContain("token: [secret]");
    expect(demo.lines.join("\n")).not.toContain("s3cr3t-token");
    // A secret stack output is sealed in state, as the CLI stores it.
    expect(fs.readFileSync(path.join(demo.root, "state.json"), "utf8")).not.toContain("s3cr3t-token");

    const again = await demo.stack.up();
    expect(again.steps.map((s) => s.op)).toEqual(["same", "same"]);

    setFiles(demo, { a: "A22", c: "C1" });
    const planned = await demo.stack.preview();
    expect(planned.steps.map(describeStep)).toEqual([
      "~ test:File a update [diff: ~content]",
      "+ test:File c create",
      "- test:File b delete",
    ]);
    expect(listing(demo.data)).toEqual({ "a.txt": "A1", "b.txt": "B1" });
    const applied = await demo.stack.up();
    expect(applied.steps.map(describeStep)).toEqual(planned.steps.map(describeStep));
    expect(listing(demo.data)).toEqual({ "a.txt": "A22", "c.txt": "C1" });

    const destroyed = await demo.stack.destroy();
    expect(destroyed.steps.map(describeStep)).toEqual(["- test:File c delete", "- test:File a delete"]);
    expect(listing(demo.data)).toEqual({});
  });

  test("a rename: without aliases a create and a delete; with aliases the same resource, no step", async () => {
    const demo = project("src/index.js", "src/index.js", { a: "A1" });
    await demo.stack.up();
    setFiles(demo, { b: "A1" }, { b: "a" });
    const aliased = await demo.stack.up();
    expect(aliased.steps.map((s) => `${s.op} ${s.urn.split("::").pop()}`)).toEqual(["same b"]);
    expect(listing(demo.data)).toEqual({ "a.txt": "A1" });
    setFiles(demo, { c: "A1" });
    const renamed = await demo.stack.up();
    expect(renamed.steps.map(describeStep)).toEqual(["+ test:File c create", "- test:File b delete"]);
    expect(listing(demo.data)).toEqual({ "c.txt": "A1" });
  });

  test("a check failure fails the run with the provider's message, and creates nothing", async () => {
    const demo = project(undefined, "index.js", { a: "bad" });
    const error = (await demo.stack.up().catch((e: unknown) => e)) as StackRunError;
    expect(error).toBeInstanceOf(StackRunError);
    expect(error.message).toContain('content: "bad" is not allowed');
    expect(listing(demo.data)).toEqual({});
  });

  test("main as a folder runs package.json's entry point (a library here): nothing declared, all deleted", async () => {
    // The mistake this engine must reveal: a folder `main` makes the SDK's runner take package.json's exports ".".
    const demo = project("src/index.js", "src/index.js", { a: "A1" });
    await demo.stack.up();
    expect(listing(demo.data)).toEqual({ "a.txt": "A1" });
    fs.writeFileSync(path.join(demo.root, "lib.js"), "module.exports = { File: undefined };\n");
    fs.writeFileSync(
      path.join(demo.root, "package.json"),
      JSON.stringify({ name: "demo", exports: { ".": "./lib.js" } }),
    );
    fs.writeFileSync(path.join(demo.root, "Pulumi.yaml"), "name: demo\nruntime: nodejs\nmain: src/\n");
    const planned = await demo.stack.preview();
    expect(planned.steps.map(describeStep)).toEqual(["- test:File a delete"]);
  });
});
