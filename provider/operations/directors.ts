import { ConnectionSpec } from "../remote";

/** Directors listed before an update and not after it: their entries must go. A director is its host and port. */
export function droppedDirectors<T extends ConnectionSpec>(before: T[], after: T[]): T[] {
  const same = (a: ConnectionSpec, b: ConnectionSpec) => a.host === b.host && (a.port ?? 22) === (b.port ?? 22);
  return before.filter((d) => !after.some((n) => same(n, d)));
}
