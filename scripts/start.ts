// `npm start`: the main job on the embedded default. Boots the lab if it is not up, deploys the lab stack
// (Pulumi.yaml + Pulumi.lab.yaml) and shows that it works: each director's live IPVS table and which real server
// answered each request sent from the lab's client to every VIP. `npm start -- destroy` undoes the deployment (the
// lab keeps running; `npm run lab:down` stops it).
//
// With the Pulumi CLI on PATH the stack runs through it (a local file backend and a fixed lab passphrase: no account
// needed); without it, the same project runs through the CLI-faithful test engine (test/harness/cli).
import { execFileSync, spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { PulumiStack, RunResult } from "../test/harness/cli/stack";
import { fetchThroughVip, labExec, labHosts, labStateDir, tally } from "../test/lab/lab";

const root = path.resolve(__dirname, "..");
const STACK = "lab";
// Local state of the lab stack: it lives and dies with the lab (a new lab has new hosts and host keys).
const stateDir = path.join(labStateDir, "pulumi");

type Action = "up" | "destroy";

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function pulumiOnPath(): boolean {
  return spawnSync("pulumi", ["version"], { stdio: "ignore" }).status === 0;
}

function labUp(): void {
  execFileSync("bash", [path.join(root, "test/lab/up.sh")], { stdio: "inherit" });
}

/** The real CLI, as the README's "Against the lab" steps run it. */
function withCli(action: Action): void {
  fs.mkdirSync(stateDir, { recursive: true });
  const env = {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${stateDir}`,
    PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? "lvs-pulumi-lab",
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  const pulumi = (args: string[], input?: string) =>
    execFileSync("pulumi", args, { cwd: root, env, input, stdio: [input ? "pipe" : "inherit", "inherit", "inherit"] });
  pulumi(["stack", "select", "--create", STACK]);
  if (action === "destroy") {
    pulumi(["destroy", "--yes", "--skip-preview", "-s", STACK]);
    return;
  }
  const key = fs.readFileSync(path.join(labStateDir, "id_ed25519"), "utf8");
  pulumi(["config", "set", "--secret", "lvs:sshPrivateKey", "-s", STACK], key);
  pulumi(["up", "--yes", "--skip-preview", "-s", STACK]);
}

/** The same project through the test engine, printing what the CLI would. */
async function withEngine(action: Action): Promise<RunResult> {
  fs.mkdirSync(stateDir, { recursive: true });
  const stack = new PulumiStack({
    root,
    stack: STACK,
    statePath: path.join(stateDir, "state.json"),
    // Pulumi.lab.yaml names .lab/hosts.json; a lab elsewhere (LVS_LAB_STATE, e.g. the test run's second lab) has its own.
    config: process.env.LVS_LAB_STATE ? { "lvs:labHostsFile": path.join(labStateDir, "hosts.json") } : {},
    secretConfig: { "lvs:sshPrivateKey": fs.readFileSync(labHosts().hosts.dir1.connection.privateKeyPath, "utf8") },
    print: say,
  });
  return action === "destroy" ? stack.destroy() : stack.up();
}

/** What the deployment does, seen from the lab: live tables, and who answers through each VIP. */
async function showItWorks(): Promise<void> {
  const hosts = labHosts().hosts;
  for (const director of Object.keys(hosts).filter((h) => hosts[h].role === "director")) {
    say(`\n${director}: ipvsadm -Ln`);
    say((await labExec(director, "ipvsadm -Ln")).trimEnd());
  }
  const vips = stackVips();
  say("");
  for (const vip of vips) {
    const [address, port] = splitVip(vip);
    const answers = await fetchThroughVip(address, port, 6);
    const counts = Object.entries(tally(answers)).map(([who, n]) => `${who} x${n}`);
    say(`${vip} from client: ${answers.join(" ")}  (${counts.join(", ")})`);
  }
}

/** The VIPs of the lab stack's services ("tcp:198.51.100.46:80", "tcp:[2001:db8:1::101]:80"). */
function stackVips(): string[] {
  const file = path.join(stateDir, "state.json");
  if (fs.existsSync(file)) {
    const outputs = (JSON.parse(fs.readFileSync(file, "utf8")) as { outputs?: { vips?: string[] } }).outputs;
    if (outputs?.vips) return outputs.vips;
  }
  const out = execFileSync("pulumi", ["stack", "output", "vips", "--json", "-s", STACK], {
    cwd: root,
    env: { ...process.env, PULUMI_BACKEND_URL: `file://${stateDir}` },
  });
  return JSON.parse(out.toString()) as string[];
}

function splitVip(vip: string): [string, number] {
  const match = /^\w+:(?:\[(.+)\]|([^:]+)):(\d+)$/.exec(vip);
  if (!match) throw new Error(`unexpected VIP output ${vip}`);
  return [match[1] ?? match[2], Number(match[3])];
}

async function main(): Promise<void> {
  const action: Action = process.argv[2] === "destroy" ? "destroy" : "up";
  if (process.argv[2] && !["up", "destroy"].includes(process.argv[2])) {
    throw new Error(`npm start -- ${process.argv[2]}: expected "up" (the default) or "destroy"`);
  }
  labUp();
  if (pulumiOnPath()) {
    say(`pulumi ${action} -s ${STACK} (the Pulumi CLI on PATH, state in ${stateDir})`);
    withCli(action);
  } else {
    say(
      `The Pulumi CLI is not on PATH: running the project through the CLI-faithful test engine (state in ${stateDir}).`,
    );
    await withEngine(action);
  }
  if (action === "up") await showItWorks();
  else say("\nDestroyed. The lab is still running: `npm run lab:down` stops it.");
}

main().catch((error: unknown) => {
  process.stderr.write(`npm start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
