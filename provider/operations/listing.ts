import { IpvsTable } from "../facts/ipvsModel";
import { ipvsTableFact } from "../facts/ipvsTable";
import { ConnectionSpec } from "../remote";
import { withHost } from "./session";

/**
 * An entry as the directors list it: the first listing that is not as wanted, so that drift on any director of a pair
 * shows, else the first one; undefined when no director has it any more.
 */
export async function listedEntry<T>(
  directors: ConnectionSpec[],
  pick: (table: IpvsTable) => T | undefined,
  asWanted: (entry: T) => boolean,
): Promise<T | undefined> {
  const listed = await Promise.all(
    directors.map((director) => withHost(director, (s) => s.read({ table: ipvsTableFact() }))),
  );
  const entries = listed.map((live) => pick(live.table)).filter((entry): entry is T => entry !== undefined);
  return entries.find((entry) => !asWanted(entry)) ?? entries[0];
}
