// diff() is pure: it compares the old outputs with the new, checked inputs (and the hosts the operator listed as
// down) and never opens SSH. `__provider` is ignored so that upgrading this library shows no change.

import { destinationKey, serviceKey } from "../model/ipvs";
import { desiredDestination, desiredServiceId } from "../plan/desired-entries";
import { expectedKeepalived } from "../plan/ha-pair";
import { knownDown } from "../operations/unreachable";
import { haPairInputsSchema } from "../schemas/ha-pair";
import { realServerInputsSchema } from "../schemas/real-server";
import { virtualServiceInputsSchema } from "../schemas/virtual-service";

export type ResourceKind = "director" | "virtualService" | "realServer" | "haPair";

export interface ResourceDiff {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/** Inputs whose change means another entry (another host, service or destination): replace, never edit. */
const IDENTITY: Record<ResourceKind, string[]> = {
  // A director on another address is updated, not replaced: the update gives up the old host only when it is
  // another machine (a second name of the same one must not lose its setup).
  director: [],
  virtualService: ["protocol", "address", "port", "fwmark", "family"],
  realServer: ["service", "address", "port"],
  // An HA pair is updated in place, whatever changes (kinds/ha-pair/apply.ts): a replacement would stop keepalived
  // on both members before the new pair even started. The update keeps one member holding the VIPs throughout and
  // gives up a member only when it is another machine.
  haPair: [],
};

/**
 * The key of the entry on the host. Inputs written differently (a port spelled out, an IPv6 address in upper case, a
 * fwmark family made explicit) with the same key are the same entry: replacing it would create nothing and then
 * delete the live entry.
 */
const ENTRY_KEY: Partial<Record<ResourceKind, (inputs: Record<string, unknown>) => string>> = {
  virtualService: (inputs) => serviceKey(desiredServiceId(virtualServiceInputsSchema().parse(inputs))),
  realServer: (inputs) => {
    const dest = desiredDestination(realServerInputsSchema().parse(inputs));
    return destinationKey(dest.service, dest.address, dest.port);
  },
};

/** Undefined when the kind has no key or the inputs are not complete yet (unknown in a preview). */
export function entryKey(kind: ResourceKind, inputs: Record<string, unknown>): string | undefined {
  try {
    return ENTRY_KEY[kind]?.(inputs);
  } catch {
    return undefined;
  }
}

/** Values computed by the provider, not inputs. */
export const COMPUTED: Record<ResourceKind, string[]> = {
  director: ["kernelRelease", "ipvsadmVersion", "schedulers", "table"],
  virtualService: ["missingFrom"],
  realServer: ["missingFrom", "health"],
  haPair: ["master", "keepalived"],
};

export const PROVIDER_KEY = "__provider";
/** The resource's URN, for its log lines (runtime/resource-log.ts); not an input of the entry. */
export const URN_KEY = "__urn";

/** The inputs among stored outputs or registered properties: without `__provider`, `__urn` and computed values. */
export function inputsOnly(kind: ResourceKind, props: Record<string, unknown>): Record<string, unknown> {
  const ignored = new Set([PROVIDER_KEY, URN_KEY, ...COMPUTED[kind]]);
  return Object.fromEntries(Object.entries(props).filter(([key]) => !ignored.has(key)));
}

/**
 * Live state a kind reports (refresh) that its inputs determine: a difference is drift the next apply repairs.
 * Inputs that cannot be rendered yet (unknown in a preview) compare as no drift.
 */
const EXPECTED_LIVE: Partial<Record<ResourceKind, (inputs: Record<string, unknown>) => Record<string, unknown>>> = {
  // Every director of the entry lists it (refresh names those that do not).
  virtualService: () => ({ missingFrom: undefined }),
  realServer: () => ({ missingFrom: undefined }),
  // With a member listed as down (operations/unreachable.ts), the other is expected to hold the VIPs for both: an up
  // during the outage raises it, the first up after it declares both again.
  haPair: (inputs) => {
    const pair = haPairInputsSchema().parse(inputs);
    const down = (["primary", "backup"] as const).find((role) => knownDown(pair[role].connection));
    return { keepalived: expectedKeepalived(pair, down) };
  },
};

function drifted(kind: ResourceKind, olds: Record<string, unknown>, news: Record<string, unknown>): string[] {
  const expect = EXPECTED_LIVE[kind];
  if (!expect) return [];
  let expected: Record<string, unknown>;
  try {
    expected = expect(inputsOnly(kind, news));
  } catch {
    return [];
  }
  return Object.keys(expected).filter(
    (key) => olds[key] !== undefined && canonical(olds[key]) !== canonical(expected[key]),
  );
}

export function diffResource(
  kind: ResourceKind,
  oldProps: Record<string, unknown>,
  newProps: Record<string, unknown>,
): ResourceDiff {
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
    : IDENTITY[kind].filter((path) => canonical(at(olds, path)) !== canonical(at(news, path)));
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
