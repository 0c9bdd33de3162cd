// `npm run bench [-- <real servers> ...]` (default 100 500 1000): a benchmark, not a test. For each size, in the lab:
// one HA pair x 20 DR services x (size / 20) real servers deployed by the stack program through the CLI-faithful
// engine (every RealServer a resource, as many steps at once as the CLI runs), 10% of the weights changed, a
// refresh, a destroy; then the same table the per-command way (per-command.ts). Per phase it prints wall time, SSH
// connections opened (jump host included), remote execs, the working process's peak RSS, and the ratio
// per-command / ours. The live tables are compared with the desired ones after every phase that writes.
// Boots the lab if it is not up, and then takes it down again at the end (also when the benchmark fails).
// The floor (floor()): what a hand-written script does at best, one SSH exec per director per phase (one `ipvsadm -R`
// of the whole table or of the edits, one keepalived.conf and its start, one table read).
// Profiling: LVS_BENCH_OURS_ONLY=1 skips the per-command and floor sides; LVS_BENCH_TRACE=<file> gets one line per remote exec
// (start, ms to open, ms in all, pid, stdin bytes, what it was, the command's start; see ssh-counter.js);
// LVS_BENCH_PROFILE=<folder> gets a V8 CPU profile of every process of a phase (cpu-profile.js, profile-summary.ts).
import { execFileSync, spawn, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { PulumiStack } from "../harness/cli/stack";
import { labExec, labHosts, liveIpvsTable } from "../lab/lab";
import { PerCommandJob } from "./per-command";
import {
  benchServices,
  BenchService,
  desiredTable,
  DIRECTORS,
  liveTable,
  SERVICES,
  topologyConfig,
  VIP,
} from "./topology";

const root = path.resolve(__dirname, "../..");
const counter = path.join(__dirname, "ssh-counter.js");
const PHASES = ["create", "change", "refresh", "destroy"] as const;
type Phase = (typeof PHASES)[number];

interface Figures {
  wallMs: number;
  connections: number;
  execs: number;
  peakRssBytes: number;
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/**
 * Runs `body` with a fresh counts folder handed to every process it starts; sums what they counted and prints them
 * at once (`what`: whose phase), so a long run shows its figures as it goes.
 */
async function measured(what: string, body: (env: NodeJS.ProcessEnv) => Promise<void>): Promise<Figures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lvs-bench-counts-"));
  let wallMs: number;
  let counts: Omit<Figures, "wallMs">[];
  try {
    const started = Date.now();
    const profile = process.env.LVS_BENCH_PROFILE;
    const cpuProfile = profile ? ` --require ${path.join(__dirname, "cpu-profile.js")}` : "";
    await body({ NODE_OPTIONS: `--require ${counter}${cpuProfile}`, LVS_BENCH_COUNTS: dir });
    wallMs = Date.now() - started;
    counts = fs
      .readdirSync(dir)
      .map((file) => JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Omit<Figures, "wallMs">);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const working = counts.filter((c) => c.connections > 0);
  const figures = {
    wallMs,
    connections: counts.reduce((sum, c) => sum + c.connections, 0),
    execs: counts.reduce((sum, c) => sum + c.execs, 0),
    peakRssBytes: Math.max(0, ...working.map((c) => c.peakRssBytes)),
  };
  say(`bench: ${what} done at ${new Date().toISOString()}:${cells(figures)}`);
  return figures;
}

/** A phase as the progress lines name it, e.g. `ours 1000: create`. */
const phaseLabel = (side: "ours" | "per-command" | "floor", perService: number, name: Phase) =>
  `${side} ${perService * SERVICES}: ${name}`;

async function tablesEqual(services: BenchService[], what: string): Promise<void> {
  const desired = desiredTable(services);
  for (const director of DIRECTORS) {
    const live = liveTable(await liveIpvsTable(director));
    const missing = desired.filter((line) => !live.includes(line));
    const extra = live.filter((line) => !desired.includes(line));
    if (missing.length || extra.length) {
      throw new Error(
        `${what}: ${director}'s table differs from the desired one: ${missing.length} missing (${missing.slice(0, 3).join("; ")}), ${extra.length} extra (${extra.slice(0, 3).join("; ")})`,
      );
    }
  }
}

/** The keepalived.conf ours wrote on each director for the pair (after its create): the floor writes the same. */
const pairConfig: Record<string, string> = {};
const KEEPALIVED_CONF = "/etc/keepalived/keepalived.conf";

/** Ours: the project's stack program with a `bench` stack, driven as `pulumi up / refresh / destroy`. */
async function ours(perService: number): Promise<Record<Phase, Figures>> {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "lvs-bench-state-"));
  const privateKey = fs.readFileSync(labHosts().hosts.dir1.connection.privateKeyPath, "utf8");
  const stack = (services: BenchService[], env: NodeJS.ProcessEnv) =>
    new PulumiStack({
      root,
      stack: "bench",
      statePath: path.join(state, "state.json"),
      config: { "lvs:topology": topologyConfig(services), "lvs:labHostsFile": ".lab/hosts.json" },
      secretConfig: { "lvs:sshPrivateKey": privateKey },
      env,
    });
  const initial = benchServices(perService, false);
  const changed = benchServices(perService, true);
  const resources = SERVICES * perService + SERVICES + DIRECTORS.length + 1;
  try {
    const create = await measured(phaseLabel("ours", perService, "create"), async (env) => {
      const result = await stack(initial, env).up();
      if (result.summary.created.length !== resources) {
        throw new Error(`create: ${result.summary.created.length} resources created, expected ${resources}`);
      }
    });
    await tablesEqual(initial, "ours after create");
    for (const director of DIRECTORS) pairConfig[director] = await labExec(director, `cat ${KEEPALIVED_CONF}`);
    const change = await measured(phaseLabel("ours", perService, "change"), async (env) => {
      const result = await stack(changed, env).up();
      const expected = (SERVICES * perService) / 10;
      if (result.summary.updated.length !== expected) {
        throw new Error(`change: ${result.summary.updated.length} resources updated, expected ${expected}`);
      }
    });
    await tablesEqual(changed, "ours after the weight change");
    const refresh = await measured(phaseLabel("ours", perService, "refresh"), async (env) => {
      const result = await stack(changed, env).refresh();
      // Directors' outputs carry the live table, which the real servers changed: only entries can drift.
      const drift = result.steps.filter((s) => s.op !== "same" && /lvs:(RealServer|VirtualService)::/.test(s.urn));
      if (drift.length) throw new Error(`refresh: ${drift.length} resources drifted (${drift[0].urn})`);
    });
    const destroy = await measured(phaseLabel("ours", perService, "destroy"), async (env) => {
      await stack(changed, env).destroy();
    });
    await tablesEqual([], "ours after destroy");
    return { create, change, refresh, destroy };
  } finally {
    fs.rmSync(state, { recursive: true, force: true });
  }
}

function runPerCommand(job: PerCommandJob, env: NodeJS.ProcessEnv): Promise<void> {
  const jobFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lvs-bench-job-")), "job.json");
  fs.writeFileSync(jobFile, JSON.stringify(job));
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, "node_modules/.bin/tsx"), [path.join(__dirname, "per-command.ts"), jobFile], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      fs.rmSync(path.dirname(jobFile), { recursive: true, force: true });
      if (code === 0) resolve();
      else reject(new Error(`the per-command run exited with code ${code}`));
    });
  });
}

/** The per-command way: one connection and one ipvsadm per entry per director, 8 at a time. */
async function perCommand(perService: number): Promise<Record<Phase, Figures>> {
  const hosts = labHosts().hosts;
  const initial = benchServices(perService, false);
  const changed = benchServices(perService, true);
  const onDirectors = (commands: string[]) =>
    DIRECTORS.flatMap((d) => commands.map((command) => ({ connection: hosts[d].connection, command })));
  const service = (s: BenchService) => `-t ${VIP}:${s.port}`;
  const each = (
    services: BenchService[],
    command: (s: BenchService, rs: BenchService["realServers"][number]) => string,
  ) => services.flatMap((s) => s.realServers.map((rs) => command(s, rs)));
  const run = (stages: string[][]) => (env: NodeJS.ProcessEnv) =>
    runPerCommand({ parallel: 8, stages: stages.map(onDirectors) }, env);

  const create = await measured(
    phaseLabel("per-command", perService, "create"),
    run([
      initial.map((s) => `ipvsadm -A ${service(s)} -s wrr`),
      each(initial, (s, rs) => `ipvsadm -a ${service(s)} -r ${rs.address}:${s.port} -g -w ${rs.weight}`),
    ]),
  );
  await tablesEqual(initial, "per-command after create");
  const weightChanges = changed.flatMap((s, i) =>
    s.realServers
      .filter((rs, r) => rs.weight !== initial[i].realServers[r].weight)
      .map((rs) => `ipvsadm -e ${service(s)} -r ${rs.address}:${s.port} -g -w ${rs.weight}`),
  );
  const change = await measured(phaseLabel("per-command", perService, "change"), run([weightChanges]));
  await tablesEqual(changed, "per-command after the weight change");
  const refresh = await measured(
    phaseLabel("per-command", perService, "refresh"),
    run([each(changed, (s) => `ipvsadm -Ln ${service(s)}`)]),
  );
  const destroy = await measured(
    phaseLabel("per-command", perService, "destroy"),
    run([
      each(changed, (s, rs) => `ipvsadm -d ${service(s)} -r ${rs.address}:${s.port}`),
      changed.map((s) => `ipvsadm -D ${service(s)}`),
    ]),
  );
  await tablesEqual([], "per-command after destroy");
  return { create, change, refresh, destroy };
}

/** `ipvsadm -R` of `lines` in a here-document. */
const restore = (lines: string[]) => `ipvsadm -R <<'LVS_TABLE'\n${lines.join("\n")}\nLVS_TABLE\n`;
// The floor's keepalived: started on its own config and PID files (the pair's VRRP part, as ours runs it), stopped
// by its PID file.
const FLOOR_CONF = "/etc/keepalived/bench-floor.conf";
const FLOOR_PID = "/run/bench-floor.pid";

/**
 * The floor: per director and phase one SSH connection and one exec of `sh` with the whole phase on stdin, both
 * directors at once (per-command.ts runs it, so it is counted like the other sides).
 */
async function floor(perService: number): Promise<Record<Phase, Figures>> {
  const hosts = labHosts().hosts;
  const initial = benchServices(perService, false);
  const changed = benchServices(perService, true);
  const service = (s: BenchService) => `-t ${VIP}:${s.port}`;
  const entry = (s: BenchService, rs: BenchService["realServers"][number]) =>
    `${service(s)} -r ${rs.address}:${s.port} -g -w ${rs.weight}`;
  const run = (script: (director: string) => string) => (env: NodeJS.ProcessEnv) =>
    runPerCommand(
      {
        parallel: DIRECTORS.length,
        stages: [DIRECTORS.map((d) => ({ connection: hosts[d].connection, command: "sh -e", stdin: script(d) }))],
      },
      env,
    );
  const create = await measured(
    phaseLabel("floor", perService, "create"),
    run(
      (director) =>
        restore(
          initial.flatMap((s) => [`-A ${service(s)} -s wrr`, ...s.realServers.map((rs) => `-a ${entry(s, rs)}`)]),
        ) +
        `cat > ${FLOOR_CONF} <<'LVS_CONF'\n${pairConfig[director]}\nLVS_CONF\n` +
        `keepalived --vrrp -f ${FLOOR_CONF} -p ${FLOOR_PID} -r /run/bench-floor-vrrp.pid\n`,
    ),
  );
  await tablesEqual(initial, "floor after create");
  const edits = changed.flatMap((s, i) =>
    s.realServers.filter((rs, r) => rs.weight !== initial[i].realServers[r].weight).map((rs) => `-e ${entry(s, rs)}`),
  );
  const change = await measured(
    phaseLabel("floor", perService, "change"),
    run(() => restore(edits)),
  );
  await tablesEqual(changed, "floor after the weight change");
  const refresh = await measured(
    phaseLabel("floor", perService, "refresh"),
    run(() => "ipvsadm -Sn >/dev/null\n"),
  );
  const destroy = await measured(
    phaseLabel("floor", perService, "destroy"),
    run(
      () =>
        "ipvsadm -C\n" +
        `pid=$(cat ${FLOOR_PID}); kill "$pid"; while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done\n` +
        `rm -f ${FLOOR_CONF}\n`,
    ),
  );
  await tablesEqual([], "floor after destroy");
  return { create, change, refresh, destroy };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const megabytes = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
const cells = (f: Figures) =>
  `${seconds(f.wallMs).padStart(9)} ${String(f.connections).padStart(6)} ${String(f.execs).padStart(6)} ${megabytes(f.peakRssBytes).padStart(9)}`;

function report(
  size: number,
  mine: Record<Phase, Figures>,
  theirs: Record<Phase, Figures> | undefined,
  best: Record<Phase, Figures> | undefined,
): void {
  say(`\nbench: ${size} real servers (1 HA pair x ${SERVICES} services x ${size / SERVICES})`);
  say(
    "phase     ours: wall  conns  execs  peak RSS | per-command: wall  conns  execs  peak RSS |" +
      " floor: wall  conns  execs  peak RSS | per-command/ours | ours/floor",
  );
  const notRun = "(not run)".padStart(33);
  const ratio = (a: Figures | undefined, b: Figures | undefined) => (a && b ? (a.wallMs / b.wallMs).toFixed(2) : "-");
  for (const phase of PHASES) {
    const [a, b, c] = [mine[phase], theirs?.[phase], best?.[phase]];
    say(
      `${phase.padEnd(8)} ${cells(a)} | ${b ? cells(b) : notRun}            | ${c ? cells(c) : notRun} |` +
        ` ${ratio(b, a).padStart(16)} | ${ratio(a, c).padStart(10)}`,
    );
  }
}

async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number);
  const totals = sizes.length ? sizes : [100, 500, 1000];
  for (const total of totals) {
    if (!Number.isInteger(total) || total % SERVICES !== 0) {
      throw new Error(`a size must be a multiple of ${SERVICES} real servers, got ${total}`);
    }
  }
  const booted = !labRunning();
  if (booted) execFileSync("bash", [path.join(root, "test/lab/up.sh")], { stdio: "inherit" });
  try {
    await benchmark(totals);
  } finally {
    if (booted) execFileSync("bash", [path.join(root, "test/lab/down.sh")], { stdio: "inherit" });
  }
}

/** The lab is up, by the lab's own test (`npm run lab:status`: its VM's PID file names a live process). */
function labRunning(): boolean {
  return spawnSync("bash", [path.join(root, "test/lab/status.sh")], { stdio: "ignore" }).status === 0;
}

async function benchmark(totals: number[]): Promise<void> {
  for (const director of DIRECTORS) {
    const table = await liveIpvsTable(director);
    if (table.trim())
      throw new Error(`${director}'s IPVS table is not empty: the benchmark starts from an empty table`);
  }
  const growth: string[] = [];
  for (const total of totals) {
    const mine = await ours(total / SERVICES);
    const theirs = process.env.LVS_BENCH_OURS_ONLY ? undefined : await perCommand(total / SERVICES);
    const best = process.env.LVS_BENCH_OURS_ONLY ? undefined : await floor(total / SERVICES);
    report(total, mine, theirs, best);
    growth.push(
      `${total}: ours ${seconds(mine.create.wallMs)} (${(mine.create.wallMs / total).toFixed(0)} ms per real server)`,
    );
  }
  say(`\nbench: create time by size: ${growth.join(", ")}`);
}

main().catch((err: Error) => {
  process.stderr.write(`bench failed: ${err.message}\n`);
  process.exit(1);
});
