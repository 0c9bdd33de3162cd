// The provider's stable entry point. Serialized providers only hold `require("lvs-pulumi/runtime")` calls, so every
// resource of every stack loads this module once per provider process: the SSH connection pool is shared, and state
// written by older versions of this library is handled by the installed one (keep these signatures stable).
import * as pulumi from "@pulumi/pulumi";
import { checkInputs } from "../schemas/checkInputs";
import { setLogger } from "../remote";
import { diffResource, inputsOnly, PROVIDER_KEY, ResourceDiff, ResourceKind } from "./diff";
import { HANDLERS } from "./handlers";

export type { ResourceKind } from "./diff";

type Props = Record<string, unknown>;

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

setLogger({
  // Every remote command, for troubleshooting: LVS_PULUMI_DEBUG=1 in the environment of `pulumi up`.
  debug: (message) => (process.env.LVS_PULUMI_DEBUG === "1" ? pulumi.log.info(message) : undefined),
  info: (message) => pulumi.log.info(message),
  warn: (message) => pulumi.log.warn(message),
});

function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** The stored outputs hold the checked inputs; this recovers them for operations. */
function inputsOf(kind: ResourceKind, props: Props): Props {
  return HANDLERS[kind].schema().parse(inputsOnly(kind, props)) as Props;
}

export async function check(kind: ResourceKind, _olds: Props, news: Props) {
  // Values other resources have not computed yet (preview) are checked once they are known.
  if (containsUnknown(news)) return { inputs: news, failures: [] };
  const result = checkInputs(HANDLERS[kind].schema() as never, inputsOnly(kind, news));
  if (result.failures.length > 0) return { inputs: news, failures: result.failures };
  return { inputs: { ...(result.inputs as unknown as Props), [PROVIDER_KEY]: news[PROVIDER_KEY] }, failures: [] };
}

export async function diff(kind: ResourceKind, _id: string, olds: Props, news: Props): Promise<ResourceDiff> {
  return diffResource(kind, olds, news);
}

export async function create(kind: ResourceKind, props: Props) {
  const inputs = inputsOf(kind, props);
  const handler = HANDLERS[kind];
  try {
    const computed = await handler.apply(inputs);
    return { id: handler.id(inputs), outs: { ...inputs, ...computed } };
  } catch (error) {
    // A failed create leaves nothing behind: undo whatever part of it did happen, then report the first failure.
    await handler.remove(inputs).catch(() => undefined);
    throw error;
  }
}

export async function update(kind: ResourceKind, _id: string, olds: Props, news: Props) {
  const inputs = inputsOf(kind, news);
  const computed = await HANDLERS[kind].apply(inputs, inputsOf(kind, olds));
  return { outs: { ...inputs, ...computed } };
}

export async function read(kind: ResourceKind, id: string, props: Props) {
  const stored = inputsOnly(kind, props);
  const live = await HANDLERS[kind].read(inputsOf(kind, props));
  if (live === undefined) return { id: "", props: {} };
  // A live value that is absent (no persistence any more) removes the stored one.
  const merged = Object.fromEntries(Object.entries({ ...stored, ...live }).filter(([, v]) => v !== undefined));
  return { id, props: merged };
}

export async function remove(kind: ResourceKind, _id: string, props: Props): Promise<void> {
  await HANDLERS[kind].remove(inputsOf(kind, props));
}
