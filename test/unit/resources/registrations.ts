// For the tests of the resource classes: the program runs under setMocks, and each registration is recorded as the
// engine would receive it (wire form: secret wrappers kept).
import * as pulumi from "@pulumi/pulumi";
import { RegisterRequest, watchRegistrations } from "../../harness/program";
import { FAKE_HOST_KEY, FAKE_KEY } from "../fixtures/lab-hosts";

export interface Registration {
  type: string;
  inputs: Record<string, unknown>;
  additionalSecretOutputs: string[];
}

/** Every registration by resource name. */
export const sent = new Map<string, Registration>();

/** Mocks whose resources echo their inputs; records what each registration sent. Call in beforeAll. */
export async function recordRegistrations(): Promise<void> {
  await pulumi.runtime.setMocks(
    {
      call: () => ({}),
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
    },
    "lvs-pulumi",
    "test",
  );
  watchRegistrations((req) => {
    const object = (req as RegisterRequest & { getObject(): { toJavaScript(): Record<string, unknown> } }).getObject();
    sent.set(req.getName(), {
      type: req.getType(),
      inputs: object.toJavaScript(),
      additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
    });
  });
}

export function isSecretWire(v: unknown): boolean {
  return (v as Record<string, unknown>)?.[pulumi.runtime.specialSigKey] === pulumi.runtime.specialSecretSig;
}

/** The value inside a secret wrapper. */
export function secretValue(v: unknown): unknown {
  expect(isSecretWire(v)).toBe(true);
  return (v as { value: unknown }).value;
}

export function value<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

/** What `name` registered: its inputs in wire form. */
export function inputsOf(name: string): Record<string, unknown> {
  const registration = sent.get(name);
  if (!registration) throw new Error(`${name} was not registered`);
  return registration.inputs;
}

/** The names of the inputs `name` sent as secrets, sorted. */
export function secretKeys(name: string): string[] {
  return Object.entries(inputsOf(name))
    .filter(([, v]) => isSecretWire(v))
    .map(([k]) => k)
    .sort();
}

/** The resource kind a registration's serialized provider serves (resources/provider.ts providerFor). */
export function providerKind(name: string): string | undefined {
  return /with\(\{ kind: "(\w+)"/.exec(String(inputsOf(name).__provider))?.[1];
}

/** Plain strings throughout: no pulumi.secret anywhere, so only the resource class can make these secret. */
export const connection = (host: string) => ({
  host,
  hostKey: FAKE_HOST_KEY,
  privateKey: FAKE_KEY,
  privateKeyPassword: "key-passphrase",
  proxy: { host: "127.0.0.1", port: 2222, hostKey: FAKE_HOST_KEY, password: "jump-password" },
});

const SECRET_TEXTS = ["PRIVATE KEY", "not-a-real-key", "key-passphrase", "jump-password", '"pw"', '"10"'];

/** No key, passphrase or password in what any resource sent, outside its secrets. */
export function expectNoSecretOutsideSecrets(): void {
  for (const [name, { inputs }] of sent) {
    const outside = Object.fromEntries(Object.entries(inputs).filter(([, v]) => !isSecretWire(v)));
    for (const secret of SECRET_TEXTS) {
      expect({ name, sent: JSON.stringify(outside).includes(secret) }).toEqual({ name, sent: false });
    }
  }
}

/** A component to parent resources under: their URN is qualified by its type. */
class Site extends pulumi.ComponentResource {
  constructor(name: string) {
    super("test:index:Site", name);
  }
}

/**
 * Makes one resource at the top of the stack and one under a component: each sends its own URN as `__urn`, the
 * child's qualified by its parent's type.
 */
export async function expectUrnInputs(
  type: string,
  make: (name: string, opts?: pulumi.CustomResourceOptions) => pulumi.Resource,
): Promise<void> {
  const top = make(`${type}-top`);
  const child = make(`${type}-child`, { parent: new Site(`${type}-site`) });
  const [topUrn, childUrn] = await Promise.all([value(top.urn), value(child.urn)]);
  expect(inputsOf(`${type}-top`).__urn).toBe(topUrn);
  expect(topUrn).toBe(`urn:pulumi:test::lvs-pulumi::pulumi-nodejs:dynamic/lvs:${type}::${type}-top`);
  expect(inputsOf(`${type}-child`).__urn).toBe(childUrn);
  expect(childUrn).toBe(
    `urn:pulumi:test::lvs-pulumi::test:index:Site$pulumi-nodejs:dynamic/lvs:${type}::${type}-child`,
  );
}
