// What the generic runtime (runtime/) needs of a resource kind, in one typed place per kind (kinds/<kind>/policy.ts):
// the runtime has no per-kind tables and no casts. Methods, not function properties, so that a Kind of its own
// inputs is a Kind<Props> in the registry (method parameters are compared bivariantly).
import type { z } from "zod";
import type { Actor } from "../plan/owners";

export type Props = Record<string, unknown>;

export interface Kind<Inputs extends Props> {
  /** The checked inputs: defaults filled in, values canonical. */
  schema(): z.ZodType<Inputs>;
  /** The resource's id: stable for the entry it manages. */
  id(inputs: Inputs): string;
  /**
   * Inputs (dotted paths) whose change means another entry on the host: replace (create first), never edit. Only
   * when the entry key differs too: inputs written differently for the same entry are an update.
   */
  replaceOn: string[];
  /** The entry's key on the host, when the kind has one (a virtual service, a real server). */
  entryKey?(inputs: Inputs): string;
  /** The outputs the provider computes, not inputs. */
  computed: string[];
  /**
   * Live state (refresh) that the inputs determine: a stored value that differs is drift the next apply repairs.
   * `inputs` parses them when called; it throws when they cannot be rendered yet (unknown in a preview): then no
   * drift.
   */
  expectedLive?(inputs: () => Inputs): Props;
  /** What `adopt: true` takes over, in the preview's words ("real server"); none when the kind cannot adopt. */
  adopts?: string;
  /** Creates or converges for `actor`; `previous` is the old state on update. Returns the computed outputs. */
  apply(inputs: Inputs, actor: Actor, previous?: Inputs): Promise<Props>;
  /** Live values to merge over the stored outputs (`recorded`); undefined when the entry is gone. */
  read(inputs: Inputs, recorded: Props): Promise<Props | undefined>;
  /** Removes what `actor` owns (what another owner holds stays). */
  remove(inputs: Inputs, actor: Actor): Promise<void>;
}
