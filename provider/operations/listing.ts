import { IpvsTable } from "../model/ipvs";
import { ConnectionSpec, connectionKey } from "../remote";
import { sharedIpvsTable } from "./shared-reads";
import { readReachable } from "./unreachable";

/** An entry as its directors list it, and the directors (by connection key) that do not list it. */
export interface Listed<T> {
  entry: T | undefined;
  missingFrom: string[];
}

/**
 * The first listing that is not as wanted, so that drift on any director of a pair shows, else the first one;
 * undefined when no director has it any more. A director without it is drift too, named in `missingFrom`.
 */
export function listedOn<T>(
  listings: { director: string; entry: T | undefined }[],
  asWanted: (entry: T) => boolean,
): Listed<T> {
  const entries = listings.map((l) => l.entry).filter((entry): entry is T => entry !== undefined);
  return {
    entry: entries.find((entry) => !asWanted(entry)) ?? entries[0],
    missingFrom: listings.filter((l) => l.entry === undefined).map((l) => l.director),
  };
}

/** What a read does without an unreachable director. */
export const UNREACHABLE_DIRECTOR = "read from the other directors, its part kept as last known";

/**
 * The entry on every director that answers (see listedOn), from tables that refreshes running together share. An
 * unreachable director is left out with a warning: it neither lists the entry nor misses it.
 */
export async function listedEntry<T>(
  directors: ConnectionSpec[],
  pick: (table: IpvsTable) => T | undefined,
  asWanted: (entry: T) => boolean,
): Promise<Listed<T>> {
  const listings = await readReachable(
    directors,
    async (director) => ({ director: connectionKey(director), entry: pick(await sharedIpvsTable(director)) }),
    UNREACHABLE_DIRECTOR,
  );
  return listedOn(
    listings.filter((l) => l !== undefined),
    asWanted,
  );
}
