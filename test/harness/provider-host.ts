// Test tool: drives the SDK's own dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`) over gRPC, the
// way the Pulumi engine does. Not product code.
import { ChildProcess, spawn } from "child_process";
import * as readline from "readline";
import * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";

/** A property bag in wire form (plain JSON values, possibly secret wrappers and the unknown sentinel). */
export type PropertyMap = Record<string, unknown>;

/** The engine's "unknown value" sentinel (runtime/rpc.ts `unknownValue`). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/** `specialSigKey` / `specialSecretSig` from runtime/rpc.ts: `{[SIG_KEY]: SECRET_SIG, value}` marks a secret. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const PROVIDER_KEY = "__provider";

export function isSecretWrapper(v: unknown): v is { value: unknown } {
  return typeof v === "object" && v !== null && (v as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
}

/** Whether a secret wrapper is anywhere in `v`. */
export function containsSecrets(v: unknown): boolean {
  if (isSecretWrapper(v)) return true;
  if (typeof v === "object" && v !== null) return Object.values(v).some(containsSecrets);
  return false;
}

/** Strips secret wrappers deeply (what the engine does for a provider that answered acceptSecrets=false). */
export function stripSecrets(v: unknown): unknown {
  if (isSecretWrapper(v)) return stripSecrets(v.value);
  if (Array.isArray(v)) return v.map(stripSecrets);
  if (typeof v === "object" && v !== null) {
    const out: PropertyMap = {};
    for (const [k, e] of Object.entries(v)) out[k] = stripSecrets(e);
    return out;
  }
  return v;
}

/** Drops undefined object members (and turns undefined array elements into null), as the language host does. */
function dropUndefined(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((e) => (e === undefined ? null : dropUndefined(e)));
  if (typeof v === "object" && v !== null) {
    const out: PropertyMap = {};
    for (const [k, e] of Object.entries(v)) if (e !== undefined) out[k] = dropUndefined(e);
    return out;
  }
  return v;
}

export function toStruct(props: PropertyMap, keepSecrets = false): Struct {
  const plain = dropUndefined(keepSecrets ? props : stripSecrets(props)) as PropertyMap;
  return Struct.fromJavaScript(plain as Parameters<typeof Struct.fromJavaScript>[0]);
}

export function fromStruct(s: Struct | undefined): PropertyMap {
  return s ? (s.toJavaScript() as PropertyMap) : {};
}

/** Splits `urn:pulumi:stack::project::type::name` into type and name (the engine sends both). */
export function parseUrn(urn: string): { type: string; name: string } {
  const parts = urn.split("::");
  if (parts.length < 4) return { type: "", name: urn };
  const name = parts[parts.length - 1];
  const typePath = parts[parts.length - 2].split("$");
  return { type: typePath[typePath.length - 1], name };
}

export function makeUrn(
  name: string,
  type = "pulumi-nodejs:dynamic:Resource",
  stack = "test",
  project = "lvs-pulumi",
): string {
  return `urn:pulumi:${stack}::${project}::${type}::${name}`;
}

export interface ProviderHostOptions {
  /** Program folder: the host's cwd, from which `require()` inside providers resolves. Default: process.cwd(). */
  cwd?: string;
  /** Sets PULUMI_NODEJS_PROJECT and PULUMI_PROJECT. Default "lvs-pulumi". */
  project?: string;
  /** Sets PULUMI_NODEJS_STACK and PULUMI_STACK. Default "test". */
  stack?: string;
  /** Extra environment for the host. */
  env?: NodeJS.ProcessEnv;
  /** Argument the host requires; it is never dialled. */
  engineAddress?: string;
  startTimeoutMs?: number;
  /** Deadline for each gRPC call. Default 120 s. */
  callTimeoutMs?: number;
}

export interface LogLine {
  stream: "stdout" | "stderr";
  line: string;
}

export interface CheckFailure {
  property: string;
  reason: string;
}
export interface CheckResult {
  inputs: PropertyMap;
  failures: CheckFailure[];
}
export type DiffChanges = "unknown" | "none" | "some";
export interface DiffResult {
  changes: DiffChanges;
  replaces: string[];
  deleteBeforeReplace: boolean;
}
export interface CreateResult {
  id: string;
  outputs: PropertyMap;
}
export interface ReadResult {
  /** "" means the resource no longer exists. */
  id: string;
  outputs: PropertyMap;
  /** Present only when the provider's read returned `inputs`. */
  inputs?: PropertyMap;
}
export interface ConfigureResult {
  acceptSecrets: boolean;
  supportsPreview: boolean;
  acceptResources: boolean;
  acceptOutputs: boolean;
}

/** Error from a provider call, with the gRPC status details. */
export class ProviderCallError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly details: string,
  ) {
    super(`${method}: ${details}`);
    this.name = "ProviderCallError";
  }
}

export class ProviderHost {
  private readonly logLines: LogLine[] = [];
  private readonly exited: Promise<number | null>;
  private exitCode: number | null | undefined;
  private acceptSecrets = false;
  private configured = false;

  private constructor(
    private readonly child: ChildProcess,
    private readonly client: provrpc.ResourceProviderClient,
    readonly port: number,
    private readonly callTimeoutMs: number,
    logLines: LogLine[],
    exited: Promise<number | null>,
  ) {
    this.logLines = logLines;
    this.exited = exited;
    void exited.then((c) => (this.exitCode = c));
  }

  /** Starts `node <dynamic-provider> <engine-address>` and connects a gRPC client to the port it prints. */
  static async start(opts: ProviderHostOptions = {}): Promise<ProviderHost> {
    const hostPath = require.resolve("@pulumi/pulumi/cmd/dynamic-provider");
    const project = opts.project ?? "lvs-pulumi";
    const stack = opts.stack ?? "test";
    const child = spawn(process.execPath, [hostPath, opts.engineAddress ?? "127.0.0.1:1"], {
      cwd: opts.cwd ?? process.cwd(),
      env: {
        ...process.env,
        PULUMI_NODEJS_PROJECT: project,
        PULUMI_PROJECT: project,
        PULUMI_NODEJS_STACK: stack,
        PULUMI_STACK: stack,
        ...opts.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const logLines: LogLine[] = [];
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    let portResolve: (p: number) => void = () => undefined;
    let portReject: (e: Error) => void = () => undefined;
    const portPromise = new Promise<number>((resolve, reject) => {
      portResolve = resolve;
      portReject = reject;
    });
    let sawPort = false;
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      if (!sawPort) {
        sawPort = true;
        const port = Number(line.trim());
        if (Number.isInteger(port) && port > 0) return portResolve(port);
        portReject(new Error(`dynamic-provider host printed no port: ${JSON.stringify(line)}`));
      }
      logLines.push({ stream: "stdout", line });
    });
    readline.createInterface({ input: child.stderr! }).on("line", (line) => logLines.push({ stream: "stderr", line }));
    child.once("error", (e) => portReject(e));
    void exited.then((code) =>
      portReject(new Error(`dynamic-provider host exited (${code}) before printing its port:\n${logText(logLines)}`)),
    );
    const timeoutMs = opts.startTimeoutMs ?? 30000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`dynamic-provider host gave no port in ${timeoutMs} ms`)), timeoutMs);
    });
    let port: number;
    try {
      port = await Promise.race([portPromise, timeout]);
    } catch (e) {
      child.kill("SIGKILL");
      await exited;
      throw e;
    } finally {
      clearTimeout(timer);
    }
    const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    return new ProviderHost(child, client, port, opts.callTimeoutMs ?? 120000, logLines, exited);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Lines the host wrote so far (provider log lines land on stdout; errors on stderr). Excludes the port line. */
  get logs(): readonly LogLine[] {
    return this.logLines;
  }
  get stdout(): string[] {
    return this.logLines.filter((l) => l.stream === "stdout").map((l) => l.line);
  }
  get stderr(): string[] {
    return this.logLines.filter((l) => l.stream === "stderr").map((l) => l.line);
  }
  clearLogs(): void {
    this.logLines.length = 0;
  }
  /** Output lines arrive asynchronously from the pipe: wait until one matches. */
  async waitForLog(match: string | RegExp, timeoutMs = 5000): Promise<LogLine> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.logLines.find((l) => (typeof match === "string" ? l.line.includes(match) : match.test(l.line)));
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no host log line matched ${match}:\n${logText(this.logLines)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  private call<Req, Res>(
    method: string,
    fn: (
      req: Req,
      md: grpc.Metadata,
      o: Partial<grpc.CallOptions>,
      cb: (e: grpc.ServiceError | null, r: Res) => void,
    ) => unknown,
    req: Req,
  ): Promise<Res> {
    if (this.exitCode !== undefined) {
      return Promise.reject(new Error(`dynamic-provider host has exited (${this.exitCode})`));
    }
    return new Promise<Res>((resolve, reject) => {
      fn.call(this.client, req, new grpc.Metadata(), { deadline: Date.now() + this.callTimeoutMs }, (err, res) => {
        if (err) reject(new ProviderCallError(method, err.code, err.details || err.message));
        else resolve(res);
      });
    });
  }

  /** Configure as the engine does (acceptSecrets/acceptResources requested); records the host's answer. */
  async configure(config: PropertyMap = {}): Promise<ConfigureResult> {
    const req = new provproto.ConfigureRequest();
    req.setArgs(toStruct(config, true));
    const vars = req.getVariablesMap();
    for (const [k, v] of Object.entries(config)) vars.set(k, typeof v === "string" ? v : JSON.stringify(v));
    req.setAcceptsecrets(true);
    req.setAcceptresources(true);
    const res = await this.call<provproto.ConfigureRequest, provproto.ConfigureResponse>(
      "Configure",
      this.client.configure,
      req,
    );
    this.acceptSecrets = res.getAcceptsecrets();
    this.configured = true;
    return {
      acceptSecrets: res.getAcceptsecrets(),
      supportsPreview: res.getSupportspreview(),
      acceptResources: res.getAcceptresources(),
      acceptOutputs: res.getAcceptoutputs(),
    };
  }

  get isConfigured(): boolean {
    return this.configured;
  }

  private struct(props: PropertyMap): Struct {
    return toStruct(props, this.acceptSecrets);
  }

  async check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult> {
    const { type, name } = parseUrn(urn);
    const req = new provproto.CheckRequest();
    req.setUrn(urn).setName(name).setType(type).setOlds(this.struct(olds)).setNews(this.struct(news));
    const res = await this.call<provproto.CheckRequest, provproto.CheckResponse>("Check", this.client.check, req);
    return {
      inputs: fromStruct(res.getInputs()),
      failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  /** `olds` are the OLD OUTPUTS (what the engine sends); `oldInputs` is sent too but the host ignores it. */
  async diff(
    urn: string,
    id: string,
    olds: PropertyMap,
    news: PropertyMap,
    oldInputs?: PropertyMap,
  ): Promise<DiffResult> {
    const { type, name } = parseUrn(urn);
    const req = new provproto.DiffRequest();
    req.setUrn(urn).setId(id).setName(name).setType(type).setOlds(this.struct(olds)).setNews(this.struct(news));
    if (oldInputs) req.setOldInputs(this.struct(oldInputs));
    const res = await this.call<provproto.DiffRequest, provproto.DiffResponse>("Diff", this.client.diff, req);
    const c = res.getChanges();
    const D = provproto.DiffResponse.DiffChanges;
    return {
      changes: c === D.DIFF_SOME ? "some" : c === D.DIFF_NONE ? "none" : "unknown",
      replaces: res.getReplacesList(),
      deleteBeforeReplace: res.getDeletebeforereplace(),
    };
  }

  async create(urn: string, props: PropertyMap): Promise<CreateResult> {
    const { type, name } = parseUrn(urn);
    const req = new provproto.CreateRequest();
    req.setUrn(urn).setName(name).setType(type).setProperties(this.struct(props)).setPreview(false);
    const res = await this.call<provproto.CreateRequest, provproto.CreateResponse>("Create", this.client.create, req);
    return { id: res.getId(), outputs: fromStruct(res.getProperties()) };
  }

  /** `props` are the stored outputs; `inputs` the stored inputs. */
  async read(urn: string, id: string, props: PropertyMap, inputs?: PropertyMap): Promise<ReadResult> {
    const { type, name } = parseUrn(urn);
    const req = new provproto.ReadRequest();
    req.setUrn(urn).setId(id).setName(name).setType(type).setProperties(this.struct(props));
    if (inputs) req.setInputs(this.struct(inputs));
    const res = await this.call<provproto.ReadRequest, provproto.ReadResponse>("Read", this.client.read, req);
    const out: ReadResult = { id: res.getId(), outputs: fromStruct(res.getProperties()) };
    if (res.hasInputs()) out.inputs = fromStruct(res.getInputs());
    return out;
  }

  /** `olds` are the OLD OUTPUTS, `news` the checked new inputs. Returns the new outputs. */
  async update(
    urn: string,
    id: string,
    olds: PropertyMap,
    news: PropertyMap,
    oldInputs?: PropertyMap,
  ): Promise<PropertyMap> {
    const { type, name } = parseUrn(urn);
    const req = new provproto.UpdateRequest();
    req.setUrn(urn).setId(id).setName(name).setType(type).setOlds(this.struct(olds)).setNews(this.struct(news));
    if (oldInputs) req.setOldInputs(this.struct(oldInputs));
    req.setPreview(false);
    const res = await this.call<provproto.UpdateRequest, provproto.UpdateResponse>("Update", this.client.update, req);
    return fromStruct(res.getProperties());
  }

  /** `props` are the OLD OUTPUTS (including the old `__provider`, which is the code that runs). */
  async delete(urn: string, id: string, props: PropertyMap, oldInputs?: PropertyMap): Promise<void> {
    const { type, name } = parseUrn(urn);
    const req = new provproto.DeleteRequest();
    req.setUrn(urn).setId(id).setName(name).setType(type).setProperties(this.struct(props));
    if (oldInputs) req.setOldInputs(this.struct(oldInputs));
    await this.call("Delete", this.client.delete, req);
  }

  /** Closes the client, kills the host by its PID and waits for it to exit (SIGKILL after `graceMs`). */
  async stop(graceMs = 5000): Promise<void> {
    this.client.close();
    if (this.exitCode === undefined) {
      this.child.kill("SIGTERM");
      let timer: NodeJS.Timeout | undefined;
      const killed = await Promise.race([
        this.exited.then(() => true),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(false), graceMs))),
      ]);
      clearTimeout(timer);
      if (!killed) {
        this.child.kill("SIGKILL");
        await this.exited;
      }
    }
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
  }
}

function logText(lines: readonly LogLine[]): string {
  return lines.map((l) => `[${l.stream}] ${l.line}`).join("\n");
}
