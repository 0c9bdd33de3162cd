// diff() is pure: it compares the old outputs with the new, checked inputs and never opens SSH. `__provider` is
// ignored so that upgrading this library shows no change.

export type ResourceKind = "director" | "virtualService" | "realServer";

export interface ResourceDiff {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/** Inputs whose change means another entry (another host, service or destination): replace, never edit. */
const IDENTITY: Record<ResourceKind, string[]> = {
  director: ["connection.host", "connection.port"],
  virtualService: ["protocol", "address", "port", "fwmark", "family"],
  realServer: ["service", "address", "port"],
};

/** Values computed by the provider, not inputs. */
export const COMPUTED: Record<ResourceKind, string[]> = {
  director: ["kernelRelease", "ipvsadmVersion", "schedulers"],
  virtualService: [],
  realServer: [],
};

const IGNORED = new Set(["__provider"]);

export function diffResource(
  kind: ResourceKind,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): ResourceDiff {
  const computed = new Set(COMPUTED[kind]);
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)].filter((k) => !IGNORED.has(k) && !computed.has(k)));
  const changed = [...keys].filter((key) => canonical(olds[key]) !== canonical(news[key]));
  const replaces = IDENTITY[kind].filter((path) => canonical(at(olds, path)) !== canonical(at(news, path)));
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
