// diff() is pure: it compares the old outputs with the new, checked inputs (and the hosts the operator listed as
// down) and never opens SSH. `__provider` is ignored so that upgrading this library shows no change. What replaces,
// what is computed and what drift looks like is each kind's policy (kinds/<kind>/policy.ts).
import { Kind, Props } from "../kinds/kind";
import { kindOf, ResourceKind } from "../kinds/registry";

export interface ResourceDiff {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/**
 * The key of the entry on the host; undefined when the kind has none or the inputs are not complete yet (unknown in
 * a preview). Inputs written differently (a port spelled out, an IPv6 address in upper case, a fwmark family made
 * explicit) with the same key are the same entry: replacing it would create nothing and then delete the live entry.
 */
export function entryKey(kind: Kind<Props>, inputs: Props): string | undefined {
  if (!kind.entryKey) return undefined;
  try {
    return kind.entryKey(kind.schema().parse(inputs));
  } catch {
    return undefined;
  }
}

export const PROVIDER_KEY = "__provider";
/** The resource's URN, for its log lines (runtime/resource-log.ts); not an input of the entry. */
export const URN_KEY = "__urn";

/** The inputs among stored outputs or registered properties: without `__provider`, `__urn` and computed values. */
export function inputsOnly(kind: Kind<Props>, props: Props): Props {
  const ignored = new Set([PROVIDER_KEY, URN_KEY, ...kind.computed]);
  return Object.fromEntries(Object.entries(props).filter(([key]) => !ignored.has(key)));
}

/** Stored live values that differ from what the inputs determine; none when the inputs cannot be rendered yet. */
function drifted(kind: Kind<Props>, olds: Props, news: Props): string[] {
  if (!kind.expectedLive) return [];
  let expected: Props;
  try {
    expected = kind.expectedLive(() => kind.schema().parse(inputsOnly(kind, news)));
  } catch {
    return [];
  }
  return Object.keys(expected).filter(
    (key) => olds[key] !== undefined && canonical(olds[key]) !== canonical(expected[key]),
  );
}

export function diffResource(name: ResourceKind, oldProps: Props, newProps: Props): ResourceDiff {
  const kind = kindOf(name);
  const olds = inputsOnly(kind, oldProps);
  const news = inputsOnly(kind, newProps);
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  const changed = [
    ...[...keys].filter((key) => canonical(olds[key]) !== canonical(news[key])),
    ...drifted(kind, oldProps, newProps),
  ];
  const key = entryKey(kind, olds);
  const sameEntry = key !== undefined && key === entryKey(kind, news);
  const replaces = sameEntry
    ? []
    : kind.replaceOn.filter((path) => canonical(at(olds, path)) !== canonical(at(news, path)));
  // A new identity is a new key on the director, so the replacement can exist beside the old entry: create first.
  return {
    changes: changed.length > 0,
    replaces: [...new Set(replaces.map((p) => p.split(".")[0]))],
    deleteBeforeReplace: false,
  };
}

function at(value: unknown, path: string): unknown {
  return path
    .split(".")
    .reduce<unknown>((v, key) => (v && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined), value);
}

/** JSON with sorted keys, undefined members dropped: two equal configurations always print alike. */
export function canonical(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) =>
      v && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
        : v,
    ) ?? "undefined"
  );
}
