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

  private writeState(state: State): void {
    fs.writeFileSync(this.statePath, JSON.stringify(state, null, 2) + "\n");
  }

  private async ensureConfigured(): Promise<void> {
    if (!this.host.isConfigured) await this.host.configure();
  }

  /** Brings the world to `desired` (given in dependency order). */
  async deploy(desired: DesiredResource[]): Promise<Summary> {
    await this.ensureConfigured();
    const summary = emptySummary();
    const old = this.readState();
    const state: State = { ...old };
    const pendingDeletes: Array<{ urn: string; entry: StateEntry }> = [];
    const seen = new Set<string>();

    for (const res of desired) {
      const { urn } = res;
      if (seen.has(urn)) throw new Error(`duplicate resource ${urn}`);
      seen.add(urn);
      const wire = await serializeInputs(res.inputs);
      const secretInputs = Object.keys(wire).filter((k) => isSecretWrapper(wire[k]));
      const news = stripSecrets(wire) as PropertyMap;
      const prior = old[urn];
      const secretsOf = (outputs: PropertyMap): string[] =>
        Object.keys(outputs).filter((k) => secretInputs.includes(k) || (res.additionalSecretOutputs ?? []).includes(k));

      const checked = await this.check(urn, prior ? prior.inputs : {}, news);
      if (!prior) {
        const created = await this.create(urn, checked);
        state[urn] = {
          id: created.id,
          inputs: checked,
          outputs: created.outputs,
          secretOutputs: secretsOf(created.outputs),
        };
        this.writeState(state);
        summary.created.push(urn);
        continue;
      }

      this.operations.push({ op: "diff", urn });
      const diff = await this.host.diff(urn, prior.id, prior.outputs, checked, prior.inputs);
      // DIFF_UNKNOWN: the engine compares old and new inputs itself (`__provider` included).
      const changed =
        diff.changes === "some" || (diff.changes === "unknown" && !isDeepStrictEqual(prior.inputs, checked));
      if (!changed) {
        // A "same" step: the engine records the new inputs but keeps the old outputs (and their old `__provider`).
        state[urn] = { ...prior, inputs: checked };
        this.writeState(state);
        summary.unchanged.push(urn);
        continue;
      }
      if (diff.replaces.length === 0) {
        this.operations.push({ op: "update", urn });
        const outputs = await this.host.update(urn, prior.id, prior.outputs, checked, prior.inputs);
        state[urn] = { id: prior.id, inputs: checked, outputs, secretOutputs: secretsOf(outputs) };
        this.writeState(state);
        summary.updated.push(urn);
        continue;
      }
      // Replacement: the engine re-checks with no olds, then creates the new one (after deleting the old one when
      // deleteBeforeReplace), else deletes the old one at the end with its old outputs.
      const rechecked = await this.check(urn, {}, news);
      if (diff.deleteBeforeReplace || res.deleteBeforeReplace) {
        await this.delete(urn, prior);
        delete state[urn];
        this.writeState(state);
      } else {
        pendingDeletes.push({ urn, entry: prior });
      }
      const created = await this.create(urn, rechecked);
      state[urn] = {
        id: created.id,
        inputs: rechecked,
        outputs: created.outputs,
        secretOutputs: secretsOf(created.outputs),
      };
      this.writeState(state);
      summary.replaced.push(urn);
    }

    // Deletions last, in reverse of the old state's order: replaced old copies and resources no longer desired.
    for (const urn of Object.keys(old)) if (!seen.has(urn)) pendingDeletes.push({ urn, entry: old[urn] });
    const order = Object.keys(old);
    pendingDeletes.sort((a, b) => order.indexOf(b.urn) - order.indexOf(a.urn));
    for (const { urn, entry } of pendingDeletes) {
      await this.delete(urn, entry);
      if (!seen.has(urn)) {
        delete state[urn];
        summary.deleted.push(urn);
      }
      this.writeState(state);
    }

    // Keep state in desired (dependency) order.
    const ordered: State = {};
    for (const res of desired) if (state[res.urn]) ordered[res.urn] = state[res.urn];
    this.writeState(ordered);
    return summary;
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

  private async check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<PropertyMap> {
    this.operations.push({ op: "check", urn });
    const r = await this.host.check(urn, olds, news);
    if (r.failures.length > 0) {
      throw new Error(`check failed for ${urn}: ${r.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    }
    return r.inputs;
  }

  private async create(urn: string, inputs: PropertyMap): Promise<{ id: string; outputs: PropertyMap }> {
    this.operations.push({ op: "create", urn });
    return this.host.create(urn, inputs);
  }

  private async delete(urn: string, entry: StateEntry): Promise<void> {
    this.operations.push({ op: "delete", urn });
    await this.host.delete(urn, entry.id, entry.outputs, entry.inputs);
  }
}

function emptySummary(): Summary {
  return { created: [], updated: [], replaced: [], deleted: [], unchanged: [] };
}
