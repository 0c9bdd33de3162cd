// The library as another Pulumi project gets it: `npm pack` of this repository, installed into a fresh TypeScript
// project outside the repository (its own @pulumi/pulumi: the library's peer dependency, one SDK copy), and a small
// program of that project run through the CLI-faithful engine against the lab: create, traffic, destroy clean.
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describeStep, PulumiStack } from "../../harness/cli/stack";
import { fetchThroughVip, tally } from "../../lab/lab";
import { labHostsConfig } from "../examples/deploy";
import { hostSnapshot } from "../provider/fixture";

const repoRoot = path.resolve(__dirname, "../../..");
const VIP = "198.51.100.40";
const HOSTS = ["dir1", "rs1", "rs2"];

// What a user copies: the DR example, its connections from the secret `hosts` config.
const PROGRAM = fs.readFileSync(path.join(repoRoot, "examples", "dr", "index.ts"), "utf8");

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

describe("the packed library in a project of its own", () => {
  let project: string;
  let stack: PulumiStack;
  let tarball: string;
  const before: Record<string, string> = {};

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    project = fs.mkdtempSync(path.join(os.tmpdir(), "lvs-consumer-"));
    // `npm pack` runs `prepare` (the build), as a git-URL install does.
    tarball = run("npm", ["pack", "--silent", "--pack-destination", project], repoRoot).trim().split("\n").pop()!;
    const sdk = (
      JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
        devDependencies: Record<string, string>;
      }
    ).devDependencies;
    fs.writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({
        name: "lvs-consumer",
        private: true,
        dependencies: { "lvs-pulumi": `file:./${tarball}`, "@pulumi/pulumi": sdk["@pulumi/pulumi"] },
        devDependencies: { typescript: sdk.typescript, "@types/node": sdk["@types/node"] },
      }),
    );
    // Everything this needs is in npm's cache after the repository's own install.
    run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], project);
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: lvs-consumer\nruntime:\n  name: nodejs\n");
    fs.writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        // esModuleInterop: zod 4's declarations (our input types) default-import its locales; without it a plain
        // `tsc` fails in node_modules/zod (TS1259), though `pulumi up` (ts-node) runs the program.
        compilerOptions: {
          strict: true,
          target: "es2020",
          module: "commonjs",
          moduleResolution: "node",
          esModuleInterop: true,
        },
        files: ["index.ts"],
      }),
    );
    fs.writeFileSync(path.join(project, "index.ts"), PROGRAM);
    stack = new PulumiStack({
      root: project,
      stack: "dev",
      statePath: path.join(project, "state.json"),
      secretConfig: { "lvs-consumer:hosts": labHostsConfig() },
    });
  }, 600_000);

  afterAll(() => {
    if (project) fs.rmSync(project, { recursive: true, force: true });
  });

  test("the tarball holds only the built library, its types, README and LICENSE", () => {
    const listed = run("tar", ["-tzf", tarball], project).trim().split("\n").sort();
    const unexpected = listed.filter(
      (f) =>
        !["package/package.json", "package/README.md", "package/LICENSE"].includes(f) &&
        !/^package\/dist\/provider\/.+(\.js|\.d\.ts)$/.test(f),
    );
    expect(unexpected).toEqual([]);
    expect(listed).toEqual(
      expect.arrayContaining(["package/LICENSE", "package/dist/provider/index.js", "package/dist/provider/index.d.ts"]),
    );
  });

  test("the project has one @pulumi/pulumi and no @pulumi/command; examples/dr typechecks in it", () => {
    const installed = path.join(project, "node_modules", "lvs-pulumi");
    expect(fs.existsSync(path.join(installed, "dist", "provider", "runtime", "index.js"))).toBe(true);
    expect(fs.existsSync(path.join(installed, "node_modules", "@pulumi", "pulumi"))).toBe(false);
    expect(fs.existsSync(path.join(project, "node_modules", "@pulumi", "command"))).toBe(false);
    // Throws with tsc's errors when the program does not typecheck against the packed types.
    run("npx", ["tsc", "--noEmit", "-p", "."], project);
  });

  test("pulumi preview lists the creates and changes no host; up serves; destroy leaves the hosts as they were", async () => {
    const creates = [
      "+ lvs:Director dir1 create",
      "+ lvs:RealServer rs1 create",
      "+ lvs:RealServer rs2 create",
      "+ lvs:VirtualService web create",
    ];
    const preview = await stack.preview();
    expect(preview.steps.map(describeStep).sort()).toEqual(creates);
    for (const h of HOSTS) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });

    const up = await stack.up();
    expect(up.steps.map(describeStep).sort()).toEqual(creates);
    expect(tally(await fetchThroughVip(VIP, 80, 6))).toEqual({ rs1: 4, rs2: 2 });

    const again = await stack.up();
    expect(again.steps.map((s) => s.op)).toEqual(["same", "same", "same", "same"]);

    const destroyed = await stack.destroy();
    expect(destroyed.steps).toHaveLength(4);
    for (const h of HOSTS) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });
  }, 900_000);
});
