// adopt: true takes over an entry a director has without our boot fragment. Whether there is one is only known on the
// director: check and diff read no host (a preview needs no SSH), so the preview says where adoption can happen, and
// the apply reports each entry it does take over (operations/ownership.ts).
import { hostKey } from "../schemas/connection";
import { Kind, Props } from "../kinds/kind";
import { entryKey } from "./diff";

function directorsOf(props: Props): { host: string; port?: number }[] {
  return Array.isArray(props.directors) ? (props.directors as { host: string; port?: number }[]) : [];
}

/**
 * The preview's word on `adopt: true`: the directors where this operation will take over the entry if one is there
 * without lvs-pulumi's boot fragment. Those are every director of a new entry (create, or the replacement of one:
 * `olds` then holds no inputs) and the directors an update adds; elsewhere the entry is already ours. Undefined when
 * nothing can be adopted.
 */
export function adoptionNotice(kind: Kind<Props>, olds: Props, news: Props): string | undefined {
  const what = kind.adopts;
  if (what === undefined || news.adopt !== true) return undefined;
  const before = new Set(directorsOf(olds).map(hostKey));
  const reached = directorsOf(news).filter((director) => !before.has(hostKey(director)));
  if (reached.length === 0) return undefined;
  const key = entryKey(kind, news);
  return (
    `adopt: true: a ${what}${key ? ` ${key}` : ""} that ${reached.map(hostKey).join(", ")} already ` +
    "has without lvs-pulumi's boot fragment will be taken over (managed from then on, and deleted with this " +
    "resource). The preview reads no host, so whether there is one is known at apply, which names each one it takes over"
  );
}
