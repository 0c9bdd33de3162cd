// The provider's stable entry point. Serialized providers only hold `require("lvs-pulumi/runtime")` calls, so every
// resource of every stack loads this module once per provider process: the SSH connection pool is shared, and state
// written by older versions of this library is handled by the installed one (keep these signatures stable).
import { Actor } from "../plan/owners";
import { unreachableHost, warnUnreachable } from "../operations/unreachable";
import { validateInputs } from "../schemas/validate-inputs";
import { log, setLogger } from "../remote";
import { adoptionNotice } from "./adoption";
import { Kind, Props } from "../kinds/kind";
import { kindOf, ResourceKind } from "../kinds/registry";
import { diffResource, inputsOnly, PROVIDER_KEY, ResourceDiff, URN_KEY } from "./diff";
import { forOperator, omitPrintedCopies } from "./operator-error";
import { asResource, connectLogToEngine, engineAddress, resourceLogger } from "./resource-log";

export type { ResourceKind } from "../kinds/registry";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

connectLogToEngine();
setLogger(resourceLogger);
if (engineAddress()) omitPrintedCopies(console);

/** `operation`, failing with the error as an operator reads it (runtime/operator-error.ts). */
function presented<T>(operation: Promise<T>): Promise<T> {
  return operation.catch((error: unknown) => {
    throw forOperator(error);
  });
}

function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** The stored outputs hold the checked inputs; this recovers them for operations. */
function inputsOf(kind: Kind<Props>, props: Props): Props {
  return kind.schema().parse(inputsOnly(kind, props));
}

export async function check(name: ResourceKind, olds: Props, news: Props) {
  const kind = kindOf(name);
  // Values other resources have not computed yet (preview) are checked once they are known.
  if (containsUnknown(news)) return { inputs: news, failures: [] };
  const result = validateInputs(kind.schema(), inputsOnly(kind, news));
  if (result.inputs === undefined) return { inputs: news, failures: result.failures };
  const passed = { [PROVIDER_KEY]: news[PROVIDER_KEY], ...(news[URN_KEY] ? { [URN_KEY]: news[URN_KEY] } : {}) };
  const inputs = result.inputs;
  // Check runs in every preview, with no olds for a new entry (create, replacement) and the old inputs otherwise.
  const adoption = adoptionNotice(kind, inputsOnly(kind, olds), inputs);
  if (adoption) await asResource(news[URN_KEY], async () => log().warn(adoption));
  return { inputs: { ...inputs, ...passed }, failures: [] };
}

export function diff(kind: ResourceKind, _id: string, olds: Props, news: Props): Promise<ResourceDiff> {
  return presented(Promise.resolve().then(() => diffResource(kind, olds, news)));
}

/** The URN, kept in the outputs so that a later update, read or delete logs under the same resource. */
function urnOf(props: Props): Props {
  return typeof props[URN_KEY] === "string" ? { [URN_KEY]: props[URN_KEY] } : {};
}

/** The resource acting, by its URN: what it creates on a host is recorded as its own (plan/owners.ts). */
function actorOf(props: Props, former?: Props, undo?: boolean): Actor {
  const urn = (p: Props | undefined) => (typeof p?.[URN_KEY] === "string" ? (p[URN_KEY] as string) : undefined);
  const formerUrn = urn(former) !== urn(props) ? urn(former) : undefined;
  return { urn: urn(props) ?? urn(former), ...(formerUrn ? { formerUrn } : {}), ...(undo ? { undo } : {}) };
}

export function create(name: ResourceKind, props: Props) {
  const kind = kindOf(name);
  return presented(
    asResource(props[URN_KEY], async () => {
      const inputs = inputsOf(kind, props);
      try {
        const computed = await kind.apply(inputs, actorOf(props));
        return { id: kind.id(inputs), outs: { ...inputs, ...computed, ...urnOf(props) } };
      } catch (error) {
        // A failed create leaves nothing behind: undo what it added (an entry it only adopted or shares stays live),
        // then report the first failure.
        await kind.remove(inputs, actorOf(props, undefined, true)).catch(() => undefined);
        throw error;
      }
    }),
  );
}

export function update(name: ResourceKind, _id: string, olds: Props, news: Props) {
  const kind = kindOf(name);
  return presented(
    asResource(news[URN_KEY] ?? olds[URN_KEY], async () => {
      const inputs = inputsOf(kind, news);
      const computed = await kind.apply(inputs, actorOf(news, olds), inputsOf(kind, olds));
      return { outs: { ...inputs, ...computed, ...urnOf(news) } };
    }),
  );
}

export function read(name: ResourceKind, id: string, props: Props) {
  const kind = kindOf(name);
  return presented(
    asResource(props[URN_KEY], async () => {
      const stored = inputsOnly(kind, props);
      let live: Props | undefined;
      try {
        live = await kind.read(inputsOf(kind, props), props);
      } catch (error) {
        // No host of the resource answers (an outage): the refresh goes on, this resource as last known.
        const unreachable = unreachableHost(error);
        if (!unreachable) throw error;
        warnUnreachable(unreachable, "what it holds is kept as last known");
        return { id, props };
      }
      if (live === undefined) return { id: "", props: {} };
      // A live value that is absent (no persistence any more) removes the stored one.
      const merged = Object.fromEntries(Object.entries({ ...stored, ...live }).filter(([, v]) => v !== undefined));
      return { id, props: { ...merged, ...urnOf(props) } };
    }),
  );
}

export function remove(name: ResourceKind, _id: string, props: Props): Promise<void> {
  const kind = kindOf(name);
  return presented(asResource(props[URN_KEY], () => kind.remove(inputsOf(kind, props), actorOf(props))));
}
