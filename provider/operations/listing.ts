import { IpvsTable } from "../facts/ipvsModel";
import { ipvsTableFact } from "../facts/ipvsTable";
import { ConnectionSpec } from "../remote";
import { withHost } from "./session";

/** An entry as the first director listing it has it (directors in order); undefined when none has it any more. */
export async function firstListing<T>(
  directors: ConnectionSpec[],
  pick: (table: IpvsTable) => T | undefined,
): Promise<T | undefined> {
  for (const director of directors) {
    const live = await withHost(director, (s) => s.read({ table: ipvsTableFact() }));
    const entry = pick(live.table);
    if (entry !== undefined) return entry;
  }
  return undefined;
}
