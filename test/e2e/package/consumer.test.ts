// The library as another Pulumi project gets it: `npm pack` of this repository, installed into a fresh TypeScript
// project outside the repository (its own @pulumi/pulumi: the library's peer dependency, one SDK copy), and a small
// program of that project run through the CLI-faithful engine against the lab: create, traffic, destroy clean.
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describeStep, PulumiStack } from "../../harness/cli/stack";
import { fetchThroughVip, labHosts, labStateDir, tally } from "../../lab/lab";
import { hostSnapshot } from "../provider/fixture";

const repoRoot = path.resolve(__dirname, "../../..");
const VIP = "198.51.100.45";
const HOSTS = ["dir2", "rs2"];

// What a user writes: connections from the lab's hosts file (host keys, jump host), the key from secret config.
const PROGRAM = `import * as fs from "fs";
import * as pulumi from "@pulumi/pulumi";
import { ConnectionArgs, Director, RealServer, VirtualService } from "lvs-pulumi";

const config = new pulumi.Config("consumer");
const privateKey = config.requireSecret("sshPrivateKey");
const lab = JSON.parse(fs.readFileSync(config.require("labHostsFile"), "utf8"));
type Lab = { host: string; port: number; user: string; hostKey: string; proxy?: Lab };
const connect = (c: Lab): ConnectionArgs => ({
  host: c.host,
  port: c.port,
  user: c.user,
  hostKey: c.hostKey,
  privateKey,
  ...(c.proxy ? { proxy: connect(c.proxy) } : {}),
});

const director = new Director("edge", { connection: connect(lab.hosts.dir2.connection) });
const web = new VirtualService("web", {
  directors: [director],
  protocol: "tcp",
  address: "${VIP}",
  port: 80,
  scheduler: "rr",
});
new RealServer("web-rs2", {
  service: web,
  address: "198.51.100.22",
  forwarding: "dr",
  host: connect(lab.hosts.rs2.connection),
});
export const kernel = director.kernelRelease;
`;

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

describe("the packed library in a project of its own", () => {
  let project: string;
  let stack: PulumiStack;
  const before: Record<string, string> = {};

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    project = fs.mkdtempSync(path.join(os.tmpdir(), "lvs-consumer-"));
    // `npm pack` runs `prepare` (the build), as a git-URL install does.
    const tarball = run("npm", ["pack", "--silent", "--pack-destination", project], repoRoot).trim().split("\n").pop()!;
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
        compilerOptions: { strict: true, target: "es2020", module: "commonjs", moduleResolution: "node" },
        files: ["index.ts"],
      }),
    );
    fs.writeFileSync(path.join(project, "index.ts"), PROGRAM);
    stack = new PulumiStack({
      root: project,
      stack: "dev",
      statePath: path.join(project, "state.json"),
      config: { "consumer:labHostsFile": path.join(labStateDir, "hosts.json") },
      secretConfig: {
        "consumer:sshPrivateKey": fs.readFileSync(labHosts().hosts.dir2.connection.privateKeyPath, "utf8"),
      },
    });
  }, 600_000);

  afterAll(() => {
    if (project) fs.rmSync(project, { recursive: true, force: true });
  });

  test("the tarball holds the built library; the project has one @pulumi/pulumi and no @pulumi/command", () => {
    const installed = path.join(project, "node_modules", "lvs-pulumi");
    expect(fs.existsSync(path.join(installed, "dist", "provider", "index.js"))).toBe(true);
    expect(fs.existsSync(path.join(installed, "dist", "provider", "runtime", "index.js"))).toBe(true);
    expect(fs.existsSync(path.join(installed, "test"))).toBe(false);
    expect(fs.existsSync(path.join(installed, "node_modules", "@pulumi", "pulumi"))).toBe(false);
    expect(fs.existsSync(path.join(project, "node_modules", "@pulumi", "command"))).toBe(false);
  });

  test("pulumi up creates the service and real server; traffic flows; pulumi destroy leaves the hosts as they were", async () => {
    const up = await stack.up();
    expect(up.steps.map(describeStep).sort()).toEqual(
      ["+ lvs:Director edge create", "+ lvs:RealServer web-rs2 create", "+ lvs:VirtualService web create"].sort(),
    );
    expect(up.outputs.kernel).toMatch(/^\d+\.\d+/);
    expect(tally(await fetchThroughVip(VIP, 80, 6))).toEqual({ rs2: 6 });

    const again = await stack.up();
    expect(again.steps.map((s) => s.op)).toEqual(["same", "same", "same"]);

    const destroyed = await stack.destroy();
    expect(destroyed.steps).toHaveLength(3);
    for (const h of HOSTS) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });
  }, 900_000);
});
