// Test tool: a tiny engine-like deploy loop over a ProviderHost, with a JSON state file. Not product code.
// It mirrors the engine's step generation for custom resources: Check (olds = old inputs), Diff (olds = old
// outputs), then Create / Update / Replace / same; deletions run last, with the OLD outputs (and so the OLD
// `__provider` text), each after the resources that depend on it, up to `parallel` at once (as refreshes). A preview
// runs check and diff only and plans the rest. Secret inputs and outputs are sealed in the state file as the CLI
// seals them (./secrets.ts). Not modelled: pending-replacement records in state.
import * as fs from "fs";
import pLimit from "p-limit";
import { isDeepStrictEqual } from "util";
import { containsSecrets, PropertyMap, ProviderHost, SECRET_SIG, SIG_KEY, stripSecrets } from "./provider-host";
import { StateSecrets } from "./secrets";
import { serializeInputs } from "./serialize";

export interface DesiredResource {
  /** `urn:pulumi:<stack>::<project>::<type>::<name>` (see makeUrn). */
  urn: string;
  /** Program-side inputs including `__provider` (a string or a Promise of one); may hold Outputs, `pulumi.secret`. */
  inputs: Record<string, unknown>;
  /** Resource option deleteBeforeReplace. */
  deleteBeforeReplace?: boolean;
  /** Resource option additionalSecretOutputs (recorded in state as secret output keys). */
  additionalSecretOutputs?: string[];
  /** URNs of the resources it depends on, as the program registered them; none given: every resource before it. */
  dependencies?: string[];
  /** Resource option aliases, as URNs: a state entry under one of them is this resource (a rename), not a delete. */
  aliases?: string[];
}

export interface StateEntry {
  id: string;
  /** Checked inputs, as sent to the provider (plain values). */
  inputs: PropertyMap;
  /** Input keys the program sent holding a secret (the CLI tracks it deeper; a whole key is never less safe). */
  secretInputs: string[];
  /** Outputs as returned by the provider (plain values; includes `__provider`). */
  outputs: PropertyMap;
  /** Output keys the engine would keep secret (same key as a secret input, or additionalSecretOutputs). */
  secretOutputs: string[];
  /** What it depends on (DesiredResource.dependencies): it is deleted only after them. */
  dependencies?: string[];
}

/** urn -> entry, in dependency (creation) order. */
export type State = Record<string, StateEntry>;

/** The state file: custom resources, plus what the CLI engine records around them (components, stack outputs). */
interface StateFile {
  resources: State;
  components?: string[];
  /** Stack outputs in wire form (secret ones wrapped). */
  outputs?: Record<string, unknown>;
}

/** A state entry as the file holds it: its secret inputs and outputs sealed (the sealed inputs are secretInputs). */
type StoredEntry = Omit<StateEntry, "secretInputs">;
type StoredStateFile = Omit<StateFile, "resources"> & { resources: Record<string, StoredEntry> };

export interface Summary {
  created: string[];
  updated: string[];
  replaced: string[];
  deleted: string[];
  unchanged: string[];
}

export interface Operation {
  op: "check" | "diff" | "create" | "update" | "delete" | "read";
  urn: string;
}

/** A step as the CLI shows it: what happens (or, in a preview, would happen) to one resource. */
export interface Step {
  op: "create" | "update" | "replace" | "delete" | "same";
  urn: string;
  /** Top-level inputs that differ from the stored ones (the CLI's `[diff: ~weight]`). */
  diffKeys: string[];
  /** Inputs whose change forces the replacement. */
  replaceKeys: string[];
}

export class Engine {
  /** Every provider call made, in order. */
  readonly operations: Operation[] = [];
  /**
   * The state file's records besides the resources, as last read or written: a step's write replaces the resources
   * only, without reading the file again (the CLI keeps its snapshot in memory; a parse per step costs ~0.1 s at a
   * thousand resources).
   */
  private otherRecords?: Omit<StateFile, "resources">;
  private readonly secrets: StateSecrets;

  constructor(
    readonly host: ProviderHost,
    readonly statePath: string,
    /** Provider calls at once for deletes and refreshes (`--parallel`). */
    readonly parallel = 1,
  ) {
    this.secrets = new StateSecrets(`${statePath}.key`);
  }

  readState(): State {
    return this.readStateFile().resources;
  }

  readStateFile(): StateFile {
    if (!fs.existsSync(this.statePath)) return this.remember({ resources: {} });
    const stored = JSON.parse(fs.readFileSync(this.statePath, "utf8")) as StoredStateFile;
    const resources: State = {};
    for (const [urn, entry] of Object.entries(stored.resources)) {
      const inputs = this.secrets.openKeys(entry.inputs);
      resources[urn] = {
        ...entry,
        inputs: inputs.values,
        secretInputs: inputs.keys,
        outputs: this.secrets.openKeys(entry.outputs).values,
      };
    }
    return this.remember({
      ...stored,
      resources,
      outputs: this.secrets.openWrappers(stored.outputs) as StateFile["outputs"],
    });
  }

  private remember(file: StateFile): StateFile {
    this.otherRecords = otherRecordsOf(file);
    return file;
  }

  private async ensureConfigured(): Promise<void> {
    if (!this.host.isConfigured) await this.host.configure();
  }

  /** Brings the world to `desired` (given in dependency order). */
  async deploy(desired: DesiredResource[]): Promise<Summary> {
    const deployment = await this.begin();
    for (const res of desired) await deployment.apply(res);
    return deployment.finish();
  }

  /**
   * Starts a deployment whose resources arrive one at a time (as a program registers them): apply() each in
   * dependency order, then finish() deletes what was not applied.
   */
  async begin(preview = false): Promise<Deployment> {
    await this.ensureConfigured();
    return new Deployment(this, this.readState(), preview);
  }

  /** @internal (Deployment) */
  writeState(state: State): void {
    this.writeStateFile({ ...(this.otherRecords ?? this.readStateFile()), resources: state });
  }

  writeStateFile(file: StateFile): void {
    this.remember(file);
    const resources: Record<string, StoredEntry> = {};
    for (const [urn, { secretInputs, ...entry }] of Object.entries(file.resources)) {
      resources[urn] = {
        ...entry,
        inputs: this.secrets.sealKeys(entry.inputs, secretInputs),
        outputs: this.secrets.sealKeys(entry.outputs, entry.secretOutputs),
      };
    }
    const stored: StoredStateFile = {
      ...file,
      resources,
      outputs: this.secrets.sealWrappers(file.outputs) as StateFile["outputs"],
    };
    // 0600 as its key file is: whoever reads both reads the secrets.
    fs.writeFileSync(this.statePath, JSON.stringify(stored, null, 2) + "\n", { mode: 0o600 });
  }

  /** Reads every resource in state, `parallel` at once; updates state (drops resources whose read returns id ""). */
  async refresh(): Promise<Record<string, PropertyMap | null>> {
    await this.ensureConfigured();
    const state = this.readState();
    const live: Record<string, PropertyMap | null> = {};
    const limit = pLimit(this.parallel);
    const urns = Object.keys(state);
    await Promise.all(
      urns.map((urn) =>
        limit(async () => {
          const entry = state[urn];
          this.operations.push({ op: "read", urn });
          const r = await this.host.read(urn, entry.id, entry.outputs, entry.inputs);
          if (!r.id) {
            live[urn] = null;
            delete state[urn];
          } else {
            live[urn] = r.outputs;
            state[urn] = { ...entry, id: r.id, outputs: r.outputs, inputs: r.inputs ?? entry.inputs };
          }
          this.writeState(state);
        }),
      ),
    );
    return Object.fromEntries(urns.map((urn) => [urn, live[urn]]));
  }

  /** Deletes everything in state, dependents first. */
  async destroy(): Promise<Summary> {
    await this.ensureConfigured();
    const summary = emptySummary();
    const state = this.readState();
    const order = Object.keys(state);
    await this.deleteInOrder(Object.entries(state), order, (urn) => {
      delete state[urn];
      this.writeState(state);
    });
    summary.deleted.push(...order.reverse());
    return summary;
  }

  /**
   * Deletes `entries` as the engine does: up to `parallel` at once, each after every entry that depends on it.
   * `order` is the state's (creation) order, which an entry without recorded dependencies is taken to follow.
   */
  async deleteInOrder(entries: [string, StateEntry][], order: string[], deleted: (urn: string) => void): Promise<void> {
    const limit = pLimit(this.parallel);
    const dependsOn = (urn: string, entry: StateEntry) => entry.dependencies ?? order.slice(0, order.indexOf(urn));
    const done = new Map<string, Promise<void>>();
    // Dependents come later in state order: walking it backwards, their deletes are known when a dependency's is.
    for (const [urn, entry] of [...entries].sort(([a], [b]) => order.indexOf(b) - order.indexOf(a))) {
      const dependents = entries.filter(([other, e]) => other !== urn && dependsOn(other, e).includes(urn));
      const after = dependents.map(([other]) => done.get(other)).filter((p) => p !== undefined);
      done.set(
        urn,
        Promise.all(after).then(() =>
          limit(async () => {
            await this.delete(urn, entry);
            deleted(urn);
          }),
        ),
      );
    }
    await Promise.all(done.values());
  }

  /** @internal (Deployment) */
  async check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<PropertyMap> {
    this.operations.push({ op: "check", urn });
    const r = await this.host.check(urn, olds, news);
    if (r.failures.length > 0) {
      throw new Error(`check failed for ${urn}: ${r.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    }
    return r.inputs;
  }

  /** @internal (Deployment) */
  async create(urn: string, inputs: PropertyMap): Promise<{ id: string; outputs: PropertyMap }> {
    this.operations.push({ op: "create", urn });
    return this.host.create(urn, inputs);
  }

  /** @internal (Deployment) */
  async delete(urn: string, entry: StateEntry): Promise<void> {
    this.operations.push({ op: "delete", urn });
    await this.host.delete(urn, entry.id, entry.outputs, entry.inputs);
  }
}

/** One deployment: the engine's step generation for custom resources, one resource at a time. */
export class Deployment {
  readonly summary = emptySummary();
  /** Every step, in the order it was decided (deletions last). */
  readonly steps: Step[] = [];
  private readonly state: State;
  private readonly pendingDeletes: Array<{ urn: string; entry: StateEntry }> = [];
  /** URNs applied so far, in order. */
  private readonly seen: string[] = [];

  constructor(
    private readonly engine: Engine,
    private readonly old: State,
    /** A dry run: check and diff only; creates and updates answer with the checked inputs, nothing is stored. */
    readonly preview = false,
  ) {
    this.state = { ...old };
  }

  /** Creates, updates, replaces or keeps one resource; returns its new state entry (outputs are plain values). */
  async apply(res: DesiredResource): Promise<StateEntry> {
    const { engine, state, summary, old } = this;
    const { urn } = res;
    if (this.seen.includes(urn)) throw new Error(`duplicate resource ${urn}`);
    this.seen.push(urn);
    const wire = await serializeInputs(res.inputs);
    const secretInputs = Object.keys(wire).filter((k) => containsSecrets(wire[k]));
    const news = stripSecrets(wire) as PropertyMap;
    // As the engine does with aliases: the old entry is carried over under the new URN, then diffed as usual.
    const alias = old[urn] ? undefined : res.aliases?.find((a) => old[a] !== undefined && !this.seen.includes(a));
    if (alias) {
      this.seen.push(alias);
      old[urn] = old[alias];
      delete old[alias];
      if (!this.preview) {
        state[urn] = state[alias];
        delete state[alias];
      }
    }
    const prior = old[urn];
    // `write: false`: the entry is kept for the next write (the CLI elides the checkpoint of a same step that changes
    // nothing stored: sameSnapshotMutation.mustWrite).
    const record = (entry: StateEntry, kind: keyof Summary, step: Omit<Step, "urn">, write = true): StateEntry => {
      this.steps.push({ urn, ...step });
      summary[kind].push(urn);
      if (this.preview) return entry;
      state[urn] = entry;
      if (write) engine.writeState(state);
      return entry;
    };
    // What a preview answers for a resource it would create or update: the checked inputs as outputs, no id.
    const planned = (inputs: PropertyMap): StateEntry => entryOf(prior?.id ?? "", inputs, inputs);
    const entryOf = (id: string, inputs: PropertyMap, outputs: PropertyMap): StateEntry => ({
      id,
      inputs,
      secretInputs,
      outputs,
      secretOutputs: Object.keys(outputs).filter(
        (k) => secretInputs.includes(k) || (res.additionalSecretOutputs ?? []).includes(k),
      ),
      dependencies: res.dependencies,
    });

    const checked = await engine.check(urn, prior ? prior.inputs : {}, news);
    if (!prior) {
      const step: Omit<Step, "urn"> = { op: "create", diffKeys: [], replaceKeys: [] };
      if (this.preview) return record(planned(checked), "created", step);
      const created = await engine.create(urn, checked);
      return record(entryOf(created.id, checked, created.outputs), "created", step);
    }

    engine.operations.push({ op: "diff", urn });
    const diff = await engine.host.diff(urn, prior.id, prior.outputs, checked, prior.inputs);
    // DIFF_UNKNOWN: the engine compares old and new inputs itself (`__provider` included).
    const changed =
      diff.changes === "some" || (diff.changes === "unknown" && !isDeepStrictEqual(prior.inputs, checked));
    if (!changed) {
      // A "same" step: the engine records the new inputs but keeps the old outputs (and their old `__provider`).
      const nothingNew =
        isDeepStrictEqual(prior.inputs, checked) &&
        isDeepStrictEqual(prior.secretInputs, secretInputs) &&
        sameMembers(prior.dependencies, res.dependencies);
      return record(
        { ...prior, inputs: checked, secretInputs, dependencies: res.dependencies },
        "unchanged",
        { op: "same", diffKeys: [], replaceKeys: [] },
        !nothingNew,
      );
    }
    const diffKeys = changedKeys(prior.inputs, checked);
    if (diff.replaces.length === 0) {
      const step: Omit<Step, "urn"> = { op: "update", diffKeys, replaceKeys: [] };
      if (this.preview) return record(planned(checked), "updated", step);
      engine.operations.push({ op: "update", urn });
      const outputs = await engine.host.update(urn, prior.id, prior.outputs, checked, prior.inputs);
      return record(entryOf(prior.id, checked, outputs), "updated", step);
    }
    // Replacement: the engine re-checks with no olds, then creates the new one (after deleting the old one when
    // deleteBeforeReplace), else deletes the old one at the end with its old outputs.
    const rechecked = await engine.check(urn, {}, news);
    const step: Omit<Step, "urn"> = { op: "replace", diffKeys, replaceKeys: diff.replaces };
    if (this.preview) return record({ ...planned(rechecked), id: "" }, "replaced", step);
    if (diff.deleteBeforeReplace || res.deleteBeforeReplace) {
      await engine.delete(urn, prior);
      delete state[urn];
      engine.writeState(state);
    } else {
      this.pendingDeletes.push({ urn, entry: prior });
    }
    const created = await engine.create(urn, rechecked);
    return record(entryOf(created.id, rechecked, created.outputs), "replaced", step);
  }

  /** Deletions last, dependents first: replaced old copies and resources not applied. */
  async finish(): Promise<Summary> {
    const { engine, state, old, summary } = this;
    for (const urn of Object.keys(old)) {
      if (!this.seen.includes(urn)) this.pendingDeletes.push({ urn, entry: old[urn] });
    }
    const order = Object.keys(old);
    this.pendingDeletes.sort((a, b) => order.indexOf(b.urn) - order.indexOf(a.urn));
    for (const { urn } of this.pendingDeletes) {
      if (this.seen.includes(urn)) continue; // a replaced resource's old copy: its step is the replace
      this.steps.push({ op: "delete", urn, diffKeys: [], replaceKeys: [] });
      summary.deleted.push(urn);
    }
    if (this.preview) return summary;
    const pending = this.pendingDeletes.map(({ urn, entry }): [string, StateEntry] => [urn, entry]);
    await engine.deleteInOrder(pending, order, (urn) => {
      if (!this.seen.includes(urn)) delete state[urn];
      engine.writeState(state);
    });
    // Keep state in apply (dependency) order.
    const ordered: State = {};
    for (const urn of this.seen) if (state[urn]) ordered[urn] = state[urn];
    engine.writeState(ordered);
    return summary;
  }
}

/** Top-level inputs that differ (`__provider` aside: a new library version is not a change the user made). */
/** The outputs as the engine returns them to the program: secret ones wrapped, so the SDK makes those Outputs secret. */
export function outputsForProgram(entry: StateEntry): PropertyMap {
  return Object.fromEntries(
    Object.entries(entry.outputs).map(([k, v]) => [
      k,
      entry.secretOutputs.includes(k) ? { [SIG_KEY]: SECRET_SIG, value: v } : v,
    ]),
  );
}

export function changedKeys(olds: PropertyMap, news: PropertyMap): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  keys.delete("__provider");
  return [...keys].filter((k) => !isDeepStrictEqual(olds[k], news[k])).sort();
}

function otherRecordsOf(file: StateFile): Omit<StateFile, "resources"> {
  return { components: file.components, outputs: file.outputs };
}

/** Dependencies recorded alike (none recorded is not the same as an empty list: see DesiredResource). */
function sameMembers(a: string[] | undefined, b: string[] | undefined): boolean {
  return a === undefined || b === undefined ? a === b : isDeepStrictEqual([...a].sort(), [...b].sort());
}

function emptySummary(): Summary {
  return { created: [], updated: [], replaced: [], deleted: [], unchanged: [] };
}
