import * as pulumi from "@pulumi/pulumi";
import { providerFor, secretInput, urnInput } from "../../../provider/resources/provider";
import { recordRegistrations, value } from "./registrations";

// The serialized provider requires the runtime at call time (in the provider process): here, a stand-in records
// what each method passes on.
const runtime = {
  check: jest.fn(() => "checked"),
  diff: jest.fn(() => "diffed"),
  create: jest.fn(() => "created"),
  read: jest.fn(() => "read"),
  update: jest.fn(() => "updated"),
  remove: jest.fn(() => "removed"),
};
jest.mock("lvs-pulumi/runtime", () => runtime, { virtual: true });

beforeAll(recordRegistrations);

test("one provider object per kind, the same each time (the SDK serializes each object once)", () => {
  expect(providerFor("director")).toBe(providerFor("director"));
  const kinds = ["director", "virtualService", "realServer", "haPair"] as const;
  expect(new Set(kinds.map(providerFor)).size).toBe(kinds.length);
});

test("each method of a kind's provider calls the runtime's of that name with the kind first", async () => {
  const provider = providerFor("realServer");
  const olds = { weight: 1 };
  const news = { weight: 2 };
  expect(await provider.check!(olds, news)).toBe("checked");
  expect(await provider.diff!("id", olds, news)).toBe("diffed");
  expect(await provider.create(news)).toBe("created");
  expect(await provider.read!("id", olds)).toBe("read");
  expect(await provider.update!("id", olds, news)).toBe("updated");
  // The SDK's `delete` is the runtime's `remove` (delete is a reserved word).
  expect(await provider.delete!("id", olds)).toBe("removed");
  expect(runtime.check).toHaveBeenCalledWith("realServer", olds, news);
  expect(runtime.diff).toHaveBeenCalledWith("realServer", "id", olds, news);
  expect(runtime.create).toHaveBeenCalledWith("realServer", news);
  expect(runtime.read).toHaveBeenCalledWith("realServer", "id", olds);
  expect(runtime.update).toHaveBeenCalledWith("realServer", "id", olds, news);
  expect(runtime.remove).toHaveBeenCalledWith("realServer", "id", olds);
});

test("urnInput is the URN the engine gives the resource: the type alone, or qualified by the parent's", async () => {
  expect(await value(urnInput("dir1", "Director"))).toBe(
    "urn:pulumi:test::lvs-pulumi::pulumi-nodejs:dynamic/lvs:Director::dir1",
  );
  const parent = new pulumi.ComponentResource("test:index:Site", "site");
  expect(await value(urnInput("web", "VirtualService", { parent }))).toBe(
    "urn:pulumi:test::lvs-pulumi::test:index:Site$pulumi-nodejs:dynamic/lvs:VirtualService::web",
  );
  // The parent's URN is taken as a bare value: an input depending on the component would wait for its children.
  const dependencies = (output: pulumi.Output<string>) =>
    (output as unknown as { allResources(): Promise<Set<pulumi.Resource>> }).allResources();
  expect(await dependencies(parent.urn)).toContain(parent);
  expect(await dependencies(urnInput("rs", "RealServer", { parent }))).not.toContain(parent);
});

test("secretInput makes a value secret, plain or output; none stays none", async () => {
  expect(secretInput(undefined)).toBeUndefined();
  const plain = secretInput({ password: "10" })!;
  expect(await pulumi.isSecret(plain)).toBe(true);
  expect(await value(plain)).toEqual({ password: "10" });
  const fromOutput = secretInput(pulumi.output("key"))!;
  expect(await pulumi.isSecret(fromOutput)).toBe(true);
  expect(await value(fromOutput)).toBe("key");
  // An output of nothing: no secret, which would reach the provider as null.
  const nothing = secretInput(pulumi.output(undefined))!;
  expect(await pulumi.isSecret(nothing)).toBe(false);
  expect(await value(nothing)).toBeUndefined();
});
