// Test tool: `pulumi preview | up [--refresh] | refresh | destroy` for a project folder, without the CLI.
// What the CLI does around a program, reproduced from its source (pulumi/pulumi pkg/engine, and
// sdk/nodejs/cmd/pulumi-language-nodejs main.go: Run, constructArguments, constructConfig):
// - Pulumi.yaml decides the program's working directory and entry point (project.ts, getPwdMain);
// - the program runs in a child process, `node <@pulumi/pulumi/cmd/run resolved from the program folder> --monitor
//   --engine --project --root-directory --stack --pwd [--dry-run] --parallel <entry point>`, with PULUMI_CONFIG,
//   PULUMI_CONFIG_SECRET_KEYS and PULUMI_NODEJS_TYPESCRIPT/TSCONFIG_PATH from the runtime options;
// - this process serves the ResourceMonitor and Engine to it (monitor.ts); every dynamic resource goes through the
//   SDK's own dynamic-provider host started in the program folder, as the engine starts the pulumi-nodejs plugin,
//   with the engine's step logic (../engine.ts), up to `parallel` steps at once;
// - state is a JSON file kept between runs, its secrets (inputs, outputs, stack outputs) sealed as the CLI seals
//   them, with a key file beside it (../secrets.ts). Not product code.
import { spawn } from "child_process";
import * as os from "os";
import pLimit from "p-limit";
import { changedKeys, Deployment, Engine, outputsForProgram, Step, Summary } from "../engine";
import { isSecretWrapper, parseUrn, PropertyMap, ProviderHost, stripSecrets } from "../provider-host";
import { urnOf } from "../program";
import { MonitorHandler, MonitorServer, Registered, Registration, Severity } from "./monitor";
import { programLocation, Project, readProject, readStackConfig } from "./project";

const DYNAMIC = "pulumi-nodejs:dynamic";
const STACK_TYPE = "pulumi:pulumi:Stack";

export interface StackOptions {
  /** The project folder (holds Pulumi.yaml). */
  root: string;
  stack: string;
  statePath: string;
  /** Config set on the stack besides Pulumi.<stack>.yaml, by full key; objects are passed as JSON. */
  config?: Record<string, unknown>;
  /** Config set with `--secret`, by full key. */
  secretConfig?: Record<string, string>;
  /** `--parallel`; the CLI's default is 4 x CPUs. */
  parallel?: number;
  /** Extra environment for the program and the provider host. */
  env?: NodeJS.ProcessEnv;
  /** Where the CLI-style display goes, line by line (default: nowhere). */
  print?: (line: string) => void;
}

export interface LogEntry {
  severity: Severity;
  message: string;
  /** The resource the message is about ("" for the stack as a whole). */
  urn: string;
}

export interface RunResult {
  /** What happened (or, for a preview, would happen) to each custom resource. Components are not listed. */
  steps: Step[];
  summary: Summary;
  /** Stack outputs, plain. */
  outputs: Record<string, unknown>;
  /** Names of secret stack outputs. */
  secretOutputs: string[];
  /** Diagnostics the program and the providers sent, and the provider host's own output. */
  logs: LogEntry[];
  /** The program's stdout and stderr. */
  programOutput: string;
}

/** Thrown when the program or a step fails; carries what was done before the failure. */
export class StackRunError extends Error {
  constructor(
    message: string,
    readonly result: RunResult,
  ) {
    super(message);
    this.name = "StackRunError";
  }
}

const STEP_SIGN: Record<Step["op"], string> = { create: "+", update: "~", replace: "+-", delete: "-", same: " " };

/** A step as the CLI prints it, e.g. `~ lvs:RealServer lvs-web-dr-rs1 update [diff: ~weight]`. */
export function describeStep(step: Step): string {
  const { type, name } = splitUrn(step.urn);
  const keys =
    step.op === "replace"
      ? step.diffKeys.map((k) => (step.replaceKeys.includes(k) ? `+-${k}` : `~${k}`))
      : step.diffKeys.map((k) => `~${k}`);
  return `${STEP_SIGN[step.op]} ${type} ${name} ${step.op}${keys.length ? ` [diff: ${keys.join(", ")}]` : ""}`;
}

/** Type and name as the CLI shows them: `lvs:RealServer`, not `pulumi-nodejs:dynamic/lvs:RealServer`. */
function splitUrn(urn: string): { type: string; name: string } {
  const { type, name } = parseUrn(urn);
  return { type: type.replace(`${DYNAMIC}/`, ""), name };
}

export class PulumiStack {
  private readonly print: (line: string) => void;

  constructor(readonly options: StackOptions) {
    this.print = options.print ?? (() => undefined);
  }

  /** Pulumi.yaml, read again for every command as the CLI does. */
  get project(): Project {
    return readProject(this.options.root);
  }

  private get parallel(): number {
    return this.options.parallel ?? 4 * os.availableParallelism();
  }

  /** `pulumi preview`: the program runs with --dry-run; providers see check and diff only. */
  preview(): Promise<RunResult> {
    return this.update(true, false);
  }

  /** `pulumi up` (`--refresh`: read every resource first). */
  up(options: { refresh?: boolean } = {}): Promise<RunResult> {
    return this.update(false, options.refresh === true);
  }

  /** `pulumi refresh`: reads every resource; drift shows as update steps. */
  async refresh(): Promise<RunResult> {
    return this.withEngine(async (engine, result) => {
      this.print(`Refreshing (${this.options.stack}):`);
      result.steps.push(...(await this.refreshSteps(engine)));
    });
  }

  /** `pulumi destroy`: deletes everything in the state, dependents first. */
  async destroy(): Promise<RunResult> {
    return this.withEngine(async (engine, result) => {
      this.print(`Destroying (${this.options.stack}):`);
      const summary = await engine.destroy();
      for (const urn of summary.deleted) result.steps.push({ op: "delete", urn, diffKeys: [], replaceKeys: [] });
      result.summary.deleted.push(...summary.deleted);
      engine.writeStateFile({ resources: {} });
    });
  }

  private async refreshSteps(engine: Engine): Promise<Step[]> {
    const before = engine.readState();
    const live = await engine.refresh();
    const steps: Step[] = [];
    for (const [urn, outputs] of Object.entries(live)) {
      const changed = outputs === null || JSON.stringify(outputs) !== JSON.stringify(before[urn].outputs);
      const step: Step = {
        op: outputs === null ? "delete" : changed ? "update" : "same",
        urn,
        diffKeys: [],
        replaceKeys: [],
      };
      if (step.op === "update") step.diffKeys = changedKeys(before[urn].outputs, outputs!);
      steps.push(step);
    }
    return steps;
  }

  private async update(preview: boolean, refresh: boolean): Promise<RunResult> {
    return this.withEngine(async (engine, result, server, handler, project) => {
      this.print(`${preview ? "Previewing update" : "Updating"} (${this.options.stack}):`);
      if (refresh) {
        for (const step of await this.refreshSteps(engine)) {
          if (step.op !== "same") this.print(`  ${describeStep(step)} (refresh)`);
        }
      }
      const deployment = await engine.begin(preview);
      handler.deployment = deployment;
      const run = await this.runProgram(project, server.address, preview, handler);
      result.programOutput = run.output;
      await handler.settled();
      // A failed step is the engine's own diagnostic; the program's exceptions arrive as error logs.
      const failures = handler.failures.map((e) => (e instanceof Error ? e.message : String(e)));
      if (run.code !== 0 || failures.length > 0) {
        const errors = result.logs.filter((l) => l.severity === "error").map((l) => l.message);
        throw new Error(
          [...failures, `the program exited with code ${run.code}`, ...errors, run.output.trim()].join("\n"),
        );
      }
      const summary = await deployment.finish();
      Object.assign(result.summary, summary);
      // Steps run in parallel and end in any order; they are listed in the order the program declared them.
      result.steps.push(...handler.inRegistrationOrder(deployment.steps));
      if (!preview) {
        const file = engine.readStateFile();
        engine.writeStateFile({ ...file, components: handler.components, outputs: handler.outputs });
      }
    });
  }

  /** Starts the provider host and the monitor, runs `body`, prints the outcome; both are always stopped. */
  private async withEngine(
    body: (
      engine: Engine,
      result: RunResult,
      server: MonitorServer,
      handler: Handler,
      project: Project,
    ) => Promise<void>,
  ): Promise<RunResult> {
    const project = this.project;
    const { pwd } = programLocation(project);
    const result: RunResult = {
      steps: [],
      summary: { created: [], updated: [], replaced: [], deleted: [], unchanged: [] },
      outputs: {},
      secretOutputs: [],
      logs: [],
      programOutput: "",
    };
    const handler = new Handler(project.name, this.options.stack, this.parallel, result);
    const server = await MonitorServer.start(handler);
    let host: ProviderHost | undefined;
    try {
      // The engine starts the pulumi-nodejs plugin in the program folder and hands it its own address.
      host = await ProviderHost.start({
        cwd: pwd,
        project: project.name,
        stack: this.options.stack,
        engineAddress: server.address,
        env: this.options.env,
      });
      const engine = new Engine(host, this.options.statePath, this.parallel);
      await body(engine, result, server, handler, project);
      const wire = handler.outputs ?? {};
      result.outputs = stripSecrets(wire) as Record<string, unknown>;
      result.secretOutputs = Object.keys(wire).filter((k) => isSecretWrapper(wire[k]));
      this.display(result, host);
      return result;
    } catch (error) {
      if (host) this.display(result, host);
      const message = error instanceof Error ? error.message : String(error);
      this.print(`error: ${message}`);
      throw new StackRunError(message, result);
    } finally {
      await host?.stop();
      await server.stop();
    }
  }

  private display(result: RunResult, host: ProviderHost): void {
    // The engine shows what plugins print as diagnostics of the update.
    for (const line of host.logs)
      result.logs.push({ severity: line.stream === "stderr" ? "error" : "info", message: line.line, urn: "" });
    for (const step of result.steps) if (step.op !== "same") this.print(`  ${describeStep(step)}`);
    for (const log of result.logs) {
      if (log.severity === "debug") continue;
      const about = log.urn ? ` ${splitUrn(log.urn).name}` : "";
      this.print(`  ${log.severity}${about}: ${log.message}`);
    }
    const counts = (["create", "update", "replace", "delete", "same"] as const)
      .map((op) => [op, result.steps.filter((s) => s.op === op).length] as const)
      .filter(([, n]) => n > 0)
      .map(([op, n]) => `${STEP_SIGN[op].trim() || "="} ${n} ${op === "same" ? "unchanged" : op}`);
    this.print(`Resources: ${counts.join(", ") || "none"}`);
    if (Object.keys(result.outputs).length > 0) {
      this.print("Outputs:");
      for (const [key, value] of Object.entries(result.outputs)) {
        this.print(`  ${key}: ${result.secretOutputs.includes(key) ? "[secret]" : JSON.stringify(value)}`);
      }
    }
  }

  /** Runs the program as pulumi-language-nodejs does; resolves with its exit code and output. */
  private runProgram(
    project: Project,
    address: string,
    dryRun: boolean,
    handler: Handler,
  ): Promise<{ code: number; output: string }> {
    const { pwd, entryPoint } = programLocation(project);
    const runPath = require.resolve("@pulumi/pulumi/cmd/run", { paths: [pwd] });
    const args = [
      runPath,
      ...["--monitor", address, "--engine", address],
      ...["--project", project.name, "--root-directory", project.root, "--stack", this.options.stack],
      ...["--pwd", pwd],
      ...(dryRun ? ["--dry-run"] : []),
      ...["--parallel", String(this.parallel)],
      entryPoint,
    ];
    const { config, secretKeys } = this.config(project);
    const options = project.runtime.options;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...this.options.env,
      // constructConfig: the old "<namespace>:config:<name>" form, which the SDK still reads.
      PULUMI_CONFIG: JSON.stringify(
        Object.fromEntries(Object.entries(config).map(([k, v]) => [k.replace(/^([^:]+):/, "$1:config:"), v])),
      ),
      PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(secretKeys),
      ...(options.typescript !== false ? { PULUMI_NODEJS_TYPESCRIPT: "true" } : {}),
      ...(typeof options.tsconfig === "string" ? { PULUMI_NODEJS_TSCONFIG_PATH: options.tsconfig } : {}),
    };
    const nodeArgs = typeof options.nodeargs === "string" ? options.nodeargs.split(/\s+/).filter(Boolean) : [];
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [...nodeArgs, ...args], {
        cwd: pwd,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.once("error", reject);
      // A failed step cancels the update: the language host interrupts the program (after it has had a moment to
      // report the error), rather than waiting for it to notice on its own.
      let cancel: NodeJS.Timeout | undefined;
      handler.onFailure = () => (cancel ??= setTimeout(() => child.kill("SIGINT"), 2000));
      child.once("close", (code) => {
        clearTimeout(cancel);
        resolve({ code: code ?? 1, output });
      });
    });
  }

  private config(project: Project): { config: Record<string, string>; secretKeys: string[] } {
    const config = readStackConfig(project.root, this.options.stack);
    for (const [key, value] of Object.entries(this.options.config ?? {})) {
      config[key] = typeof value === "string" ? value : JSON.stringify(value);
    }
    const secrets = this.options.secretConfig ?? {};
    Object.assign(config, secrets);
    return { config, secretKeys: Object.keys(secrets) };
  }
}

/** The engine side of one program run: registrations become steps, up to `parallel` at a time. */
class Handler implements MonitorHandler {
  deployment?: Deployment;
  outputs?: PropertyMap;
  readonly components: string[] = [];
  readonly failures: unknown[] = [];
  onFailure: () => void = () => undefined;
  private readonly registered: string[] = [];
  private readonly pending = new Set<Promise<unknown>>();
  private readonly limit: ReturnType<typeof pLimit>;

  constructor(
    private readonly project: string,
    private readonly stack: string,
    parallel: number,
    private readonly result: RunResult,
  ) {
    this.limit = pLimit(parallel);
  }

  register(registration: Registration): Promise<Registered> {
    const urn = urnOf(this.project, this.stack, registration.parent, registration.type, registration.name);
    if (!registration.custom) {
      this.components.push(urn);
      return Promise.resolve({ urn, id: "", outputs: {} });
    }
    this.registered.push(urn);
    const step = this.limit(() => this.apply(urn, registration));
    this.pending.add(step);
    void step.finally(() => this.pending.delete(step)).catch(() => undefined);
    return step.catch((error: unknown) => {
      this.failures.push(error);
      this.onFailure();
      throw error;
    });
  }

  private async apply(urn: string, registration: Registration): Promise<Registered> {
    if (!registration.type.startsWith(DYNAMIC)) throw new Error(`test engine: no provider for ${registration.type}`);
    const entry = await this.deployment!.apply({
      urn,
      inputs: registration.inputs,
      additionalSecretOutputs: registration.additionalSecretOutputs,
      deleteBeforeReplace: registration.deleteBeforeReplace,
      dependencies: registration.dependencies,
      aliases: registration.aliases,
    });
    return { urn, id: entry.id, outputs: outputsForProgram(entry) };
  }

  registerOutputs(urn: string, outputs: PropertyMap): void {
    if (parseUrn(urn).type === STACK_TYPE) this.outputs = outputs;
  }

  log(severity: Severity, message: string, urn: string): void {
    this.result.logs.push({ severity, message, urn });
  }

  /** Steps sorted by registration; deletions (never registered) keep their order, last. */
  inRegistrationOrder(steps: Step[]): Step[] {
    const rank = (step: Step) => (step.op === "delete" ? Infinity : this.registered.indexOf(step.urn));
    return [...steps].sort((a, b) => rank(a) - rank(b));
  }

  /** Resolves once every step started so far has ended. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
