// Test tool: a tiny engine-like deploy loop over a ProviderHost, with a JSON state file. Not product code.
// It mirrors the engine's step generation for custom resources: Check (olds = old inputs), Diff (olds = old
// outputs), then Create / Update / Replace / same; deletions run last, in reverse order, with the OLD outputs
// (and so the OLD `__provider` text). Not modelled: preview, parallelism, pending-replacement records in state.
import * as fs from "fs";
import { isDeepStrictEqual } from "util";
import { isSecretWrapper, PropertyMap, ProviderHost, stripSecrets } from "./provider-host";
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
}

export interface StateEntry {
  id: string;
  /** Checked inputs, as sent to the provider (plain values). */
  inputs: PropertyMap;
  /** Outputs as returned by the provider (plain values; includes `__provider`). */
  outputs: PropertyMap;
  /** Output keys the engine would keep secret (same key as a secret input, or additionalSecretOutputs). */
  secretOutputs: string[];
}

/** urn -> entry, in dependency (creation) order. */
export type State = Record<string, StateEntry>;

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

export class Engine {
  /** Every provider call made, in order. */
  readonly operations: Operation[] = [];

  constructor(
    readonly host: ProviderHost,
    readonly statePath: string,
  ) {}

  readState(): State {
    if (!fs.existsSync(this.statePath)) return {};
    return JSON.parse(fs.readFileSync(this.statePath, "utf8")) as State;
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
  async begin(): Promise<Deployment> {
    await this.ensureConfigured();
    return new Deployment(this, this.readState());
  }

  /** @internal (Deployment) */
  writeState(state: State): void {
    fs.writeFileSync(this.statePath, JSON.stringify(state, null, 2) + "\n");
  }

  /** Reads every resource in state; updates state (drops resources whose read returns id ""); returns live outputs. */
  async refresh(): Promise<Record<string, PropertyMap | null>> {
    await this.ensureConfigured();
    const state = this.readState();
    const live: Record<string, PropertyMap | null> = {};
    for (const [urn, entry] of Object.entries(state)) {
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
    }
    return live;
  }

  /** Deletes everything in state, in reverse order. */
  async destroy(): Promise<Summary> {
    await this.ensureConfigured();
    const summary = emptySummary();
    const state = this.readState();
    for (const urn of Object.keys(state).reverse()) {
      await this.delete(urn, state[urn]);
      delete state[urn];
      this.writeState(state);
      summary.deleted.push(urn);
    }
    return summary;
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
  private readonly state: State;
  private readonly pendingDeletes: Array<{ urn: string; entry: StateEntry }> = [];
  /** URNs applied so far, in order. */
  private readonly seen: string[] = [];

  constructor(
    private readonly engine: Engine,
    private readonly old: State,
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
    const secretInputs = Object.keys(wire).filter((k) => isSecretWrapper(wire[k]));
    const news = stripSecrets(wire) as PropertyMap;
    const prior = old[urn];
    const record = (entry: StateEntry, kind: keyof Summary): StateEntry => {
      state[urn] = entry;
      engine.writeState(state);
      summary[kind].push(urn);
      return entry;
    };
    const entryOf = (id: string, inputs: PropertyMap, outputs: PropertyMap): StateEntry => ({
      id,
      inputs,
      outputs,
      secretOutputs: Object.keys(outputs).filter(
        (k) => secretInputs.includes(k) || (res.additionalSecretOutputs ?? []).includes(k),
      ),
    });

    const checked = await engine.check(urn, prior ? prior.inputs : {}, news);
    if (!prior) {
      const created = await engine.create(urn, checked);
      return record(entryOf(created.id, checked, created.outputs), "created");
    }

    engine.operations.push({ op: "diff", urn });
    const diff = await engine.host.diff(urn, prior.id, prior.outputs, checked, prior.inputs);
    // DIFF_UNKNOWN: the engine compares old and new inputs itself (`__provider` included).
    const changed =
      diff.changes === "some" || (diff.changes === "unknown" && !isDeepStrictEqual(prior.inputs, checked));
    if (!changed) {
      // A "same" step: the engine records the new inputs but keeps the old outputs (and their old `__provider`).
      return record({ ...prior, inputs: checked }, "unchanged");
    }
    if (diff.replaces.length === 0) {
      engine.operations.push({ op: "update", urn });
      const outputs = await engine.host.update(urn, prior.id, prior.outputs, checked, prior.inputs);
      return record(entryOf(prior.id, checked, outputs), "updated");
    }
    // Replacement: the engine re-checks with no olds, then creates the new one (after deleting the old one when
    // deleteBeforeReplace), else deletes the old one at the end with its old outputs.
    const rechecked = await engine.check(urn, {}, news);
    if (diff.deleteBeforeReplace || res.deleteBeforeReplace) {
      await engine.delete(urn, prior);
      delete state[urn];
      engine.writeState(state);
    } else {
      this.pendingDeletes.push({ urn, entry: prior });
    }
    const created = await engine.create(urn, rechecked);
    return record(entryOf(created.id, rechecked, created.outputs), "replaced");
  }

  /** Deletions last, in reverse of the old state's order: replaced old copies and resources not applied. */
  async finish(): Promise<Summary> {
    const { engine, state, old, summary } = this;
    for (const urn of Object.keys(old)) {
      if (!this.seen.includes(urn)) this.pendingDeletes.push({ urn, entry: old[urn] });
    }
    const order = Object.keys(old);
    this.pendingDeletes.sort((a, b) => order.indexOf(b.urn) - order.indexOf(a.urn));
    for (const { urn, entry } of this.pendingDeletes) {
      await engine.delete(urn, entry);
      if (!this.seen.includes(urn)) {
        delete state[urn];
        summary.deleted.push(urn);
      }
      engine.writeState(state);
    }
    // Keep state in apply (dependency) order.
    const ordered: State = {};
    for (const urn of this.seen) if (state[urn]) ordered[urn] = state[urn];
    engine.writeState(ordered);
    return summary;
  }
}

function emptySummary(): Summary {
  return { created: [], updated: [], replaced: [], deleted: [], unchanged: [] };
}
