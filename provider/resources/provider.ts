import * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "../kinds/registry";

// One provider object per kind for the whole program: the SDK caches a provider's serialization by object, and a
// new object per resource would be serialized again for each (closure capture costs ms of CPU per resource).
const providers = new Map<ResourceKind, pulumi.dynamic.ResourceProvider>();

/**
 * The dynamic provider of one resource kind. Pulumi serializes these functions into every resource's state, so they
 * hold nothing but `kind` and a require of the runtime: `__provider` stays ~2 KB, all resources in a provider process
 * share one module instance (and its SSH connection pool), and old state is deleted by the installed version.
 */
export function providerFor(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  const provider = providers.get(kind) ?? serializableProvider(kind);
  providers.set(kind, provider);
  return provider;
}

function serializableProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  /* eslint-disable @typescript-eslint/no-require-imports -- resolved at call time in the provider process, by design */
  return {
    check: (olds, news) => require("lvs-pulumi/runtime").check(kind, olds, news),
    diff: (id, olds, news) => require("lvs-pulumi/runtime").diff(kind, id, olds, news),
    create: (inputs) => require("lvs-pulumi/runtime").create(kind, inputs),
    read: (id, props) => require("lvs-pulumi/runtime").read(kind, id, props),
    update: (id, olds, news) => require("lvs-pulumi/runtime").update(kind, id, olds, news),
    delete: (id, props) => require("lvs-pulumi/runtime").remove(kind, id, props),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/**
 * The URN the engine gives the resource (its parent's type qualifies it), sent as the `__urn` input: the dynamic
 * provider is not told which resource it acts on, and its log lines belong to that resource.
 */
export function urnInput(name: string, type: string, opts?: pulumi.CustomResourceOptions): pulumi.Output<string> {
  const parent = opts?.parent;
  // The parent's URN as a bare value: an input that depends on a component waits for all of its children,
  // this resource among them (a deadlock).
  const parentUrn = parent && pulumi.output(new Promise<string>((resolve) => parent.urn.apply(resolve)));
  return pulumi.createUrn(name, `pulumi-nodejs:dynamic/lvs:${type}`, parentUrn);
}

/**
 * `value` as a secret input: the engine stores a secret input encrypted in state (and keeps the output of the same
 * key secret), so keys and passwords never sit there in plain text, whether or not the user passed a pulumi.secret.
 * None stays none: a secret of nothing would reach the provider as null.
 */
export function secretInput(value: pulumi.Input<unknown> | undefined): pulumi.Output<unknown> | undefined {
  if (value === undefined) return undefined;
  return pulumi.output(value).apply((resolved) => (resolved === undefined ? resolved : pulumi.secret(resolved)));
}
