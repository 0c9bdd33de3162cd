// Test tool: the language-host side of a dynamic resource. Not product code.
import * as pulumi from "@pulumi/pulumi";
import { PropertyMap, SECRET_SIG, SIG_KEY, UNKNOWN } from "./provider-host";

/**
 * The `__provider` text exactly as `dynamic.Resource` produces it: `serializeFunction(() => provider,
 * { allowSecrets: true })` and its `.text` (see @pulumi/pulumi/dynamic/index.js, serializeFunctionMaybeSecret).
 */
export async function serializeProvider(provider: object): Promise<string> {
  const sf = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
  return sf.text;
}

/** Like serializeProvider, also telling whether secrets were captured (the SDK then marks `__provider` secret). */
export async function serializeProviderDetailed(provider: object): Promise<{ text: string; containsSecrets: boolean }> {
  const sf = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
  return { text: sf.text, containsSecrets: sf.containsSecrets };
}

interface OutputInternals {
  isKnown: Promise<boolean>;
  isSecret: Promise<boolean>;
  promise(): Promise<unknown>;
}

/**
 * Resolves program-side inputs (plain values, Promises, Outputs such as `pulumi.secret(x)`) into wire form the way
 * the language host's serializeProperty does for a monitor that supports secrets: secret Outputs become
 * `{[SIG_KEY]: SECRET_SIG, value}`, unknown Outputs the UNKNOWN sentinel, functions and undefined members vanish.
 * Assets, archives and resource references are not supported.
 */
export async function serializeInputs(inputs: Record<string, unknown>): Promise<PropertyMap> {
  return (await serializeValue(inputs)) as PropertyMap;
}

async function serializeValue(v: unknown): Promise<unknown> {
  if (typeof v === "function") return undefined;
  if (v === null || v === undefined || typeof v !== "object") return v;
  if (v instanceof Promise) return serializeValue(await v);
  if (pulumi.Output.isInstance(v)) {
    const o = v as unknown as OutputInternals;
    const isKnown = await o.isKnown;
    const isSecret = (await o.isSecret) === true;
    const value = await serializeValue(await o.promise());
    if (!isKnown) return UNKNOWN;
    return isSecret ? { [SIG_KEY]: SECRET_SIG, value } : value;
  }
  if (Array.isArray(v)) {
    const arr = await Promise.all(v.map(serializeValue));
    return arr.map((e) => (e === undefined ? null : e));
  }
  if (pulumi.asset.Asset.isInstance(v) || pulumi.asset.Archive.isInstance(v) || pulumi.Resource.isInstance(v)) {
    throw new Error("serializeInputs: assets, archives and resources are not supported by this harness");
  }
  const out: PropertyMap = {};
  for (const [k, e] of Object.entries(v)) {
    const s = await serializeValue(e);
    if (s !== undefined) out[k] = s;
  }
  return out;
}
