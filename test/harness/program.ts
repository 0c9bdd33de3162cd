// Test tool: `pulumi up` without the CLI. Runs a real Pulumi program (a stack's main function) under setMocks;
// every dynamic resource it registers goes through the SDK's dynamic-provider host with the Engine's step logic
// (check -> diff against state -> create/update/replace), and its real outputs go back to the program, so
// dependents see them. Components pass through. After the program, resources in state it no longer declared are
// deleted (reverse order, old outputs, old `__provider`). Not product code.
import * as pulumi from "@pulumi/pulumi";
import { Deployment, Engine, outputsForProgram, State, Summary } from "./engine";
import { isSecretWrapper, PropertyMap, ProviderHost, stripSecrets } from "./provider-host";
import { serializeInputs } from "./serialize";

// `pulumi-nodejs:dynamic:Resource`, or `pulumi-nodejs:dynamic/<module>:<type>` for a resource naming its module.
const DYNAMIC = "pulumi-nodejs:dynamic";

export interface StackOptions {
  host: ProviderHost;
  statePath: string;
  project?: string;
  stack?: string;
  /** Stack config by full key ("lvs:topology"); objects are passed as JSON, as the CLI does for structured config. */
  config?: Record<string, unknown>;
  /** Config keys set with `--secret`. */
  secretConfig?: string[];
  /** `pulumi up --refresh`: read every resource in state first, so unchanged resources show live outputs. */
  refresh?: boolean;
}

export interface ProgramRun {
  summary: Summary;
  /** Stack outputs as plain values. */
  outputs: Record<string, unknown>;
  /** Names of the stack outputs that are secret. */
  secretOutputs: string[];
  state: State;
}

/** What the SDK sent for the registration being mocked (newResource does not see these options). */
interface Registration {
  urn: string;
  additionalSecretOutputs: string[];
  deleteBeforeReplace: boolean;
}

/** The parts of the SDK's RegisterResourceRequest the harness and the wiring tests read. */
export interface RegisterRequest {
  getType(): string;
  getName(): string;
  getParent(): string;
  getCustom(): boolean;
  getDependenciesList(): string[];
  getAdditionalsecretoutputsList(): string[];
  getDeletebeforereplace(): boolean;
  getAliasurnsList(): string[];
  getAliasesList(): { getUrn(): string; getSpec(): { getName(): string } | undefined }[];
}

/**
 * Calls `listener` with every registration request the program makes to the current mock monitor (call after
 * setMocks), just before the mock's newResource sees that resource.
 */
export function watchRegistrations(listener: (req: RegisterRequest) => void): void {
  const monitor = pulumi.runtime.getMonitor() as unknown as {
    registerResource(req: RegisterRequest, callback: unknown): unknown;
  };
  const register = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req, callback) => {
    listener(req);
    return register(req, callback);
  };
}

// The URN the engine gives a resource: its type qualified by its parent's (children of the stack get none).
export function urnOf(project: string, stack: string, parentUrn: string, type: string, name: string): string {
  const parentType = parentUrn ? parentUrn.split("::")[2].split("$").pop() : undefined;
  const qualified = parentType && parentType !== "pulumi:pulumi:Stack" ? `${parentType}$${type}` : type;
  return `urn:pulumi:${stack}::${project}::${qualified}::${name}`;
}

/** Runs `program` (a stack's main function) once against the state at options.statePath. */
export async function deployProgram(program: () => unknown, options: StackOptions): Promise<ProgramRun> {
  const project = options.project ?? "lvs-pulumi";
  const stack = options.stack ?? "test";
  const config = Object.fromEntries(
    Object.entries(options.config ?? {}).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
  );
  pulumi.runtime.setAllConfig(config, options.secretConfig ?? []);

  const engine = new Engine(options.host, options.statePath);
  if (options.refresh) await engine.refresh();
  const deployment = await engine.begin();
  let queue: Promise<unknown> = Promise.resolve();
  const failures: unknown[] = [];
  let registering: Registration | undefined;

  await pulumi.runtime.setMocks(
    {
      call: (args) => {
        throw new Error(`program harness: no invoke ${args.token}`);
      },
      newResource: (args) => {
        const registration = registering!; // set synchronously by the wrapped registerResource below
        registering = undefined;
        if (!args.custom) return { id: undefined, state: {} };
        if (!args.type.startsWith(DYNAMIC)) throw new Error(`program harness: no provider for ${args.type}`);
        // One provider call at a time, in registration order (dependents register only after their dependencies).
        const step = queue.then(() => applyResource(deployment, registration, args.inputs as PropertyMap));
        queue = step.catch(() => undefined);
        return step.catch((error: unknown) => {
          failures.push(error);
          throw error;
        });
      },
    },
    project,
    stack,
    false,
  );
  watchRegistrations((req) => {
    registering = {
      urn: urnOf(project, stack, req.getParent(), req.getType(), req.getName()),
      additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
      deleteBeforeReplace: req.getDeletebeforereplace(),
    };
  });

  // A failed provider call fails its registration (and the resource's outputs): the run fails with the first one.
  let exported: Record<string, unknown> = {};
  await pulumi.runtime.runInPulumiStack(async () => {
    exported = ((await program()) ?? {}) as Record<string, unknown>;
    return exported;
  });
  await (pulumi.runtime as unknown as { waitForRPCs(): Promise<void> }).waitForRPCs();
  await queue;
  if (failures.length > 0) throw failures[0];

  const summary = await deployment.finish();
  const wire = await serializeInputs(exported);
  return {
    summary,
    outputs: stripSecrets(wire) as Record<string, unknown>,
    secretOutputs: Object.keys(wire).filter((k) => isSecretWrapper(wire[k])),
    state: new Engine(options.host, options.statePath).readState(),
  };
}

/** `pulumi destroy`: deletes everything in the state, in reverse order. */
export function destroyStack(options: Pick<StackOptions, "host" | "statePath">): Promise<Summary> {
  return new Engine(options.host, options.statePath).destroy();
}

async function applyResource(
  deployment: Deployment,
  registration: Registration,
  inputs: PropertyMap,
): Promise<{ id: string; state: PropertyMap }> {
  const entry = await deployment.apply({
    urn: registration.urn,
    inputs,
    additionalSecretOutputs: registration.additionalSecretOutputs,
    deleteBeforeReplace: registration.deleteBeforeReplace,
  });
  return { id: entry.id, state: outputsForProgram(entry) };
}
