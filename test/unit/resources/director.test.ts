import * as pulumi from "@pulumi/pulumi";
import { Director, directorConnection } from "../../../provider/resources/director";
import { FAKE_HOST_KEY, FAKE_KEY } from "../fixtures/lab-hosts";
import * as wire from "./registrations";

beforeAll(wire.recordRegistrations);

test("a director registers as lvs:Director with the director provider; its connection a secret, even plain", async () => {
  const dir1 = new Director("dir1", { connection: wire.connection("198.51.100.11"), installPackages: true });
  const dir2 = new Director("dir2", { connection: { host: "198.51.100.12", hostKey: FAKE_HOST_KEY, password: "pw" } });
  await Promise.all([wire.value(dir1.urn), wire.value(dir2.urn)]);

  expect(wire.sent.get("dir1")).toMatchObject({
    type: "pulumi-nodejs:dynamic/lvs:Director",
    additionalSecretOutputs: ["connection"],
  });
  expect(wire.providerKind("dir1")).toBe("director");
  expect(wire.secretKeys("dir1")).toEqual(["connection"]);
  expect(wire.secretKeys("dir2")).toEqual(["connection"]);
  expect(wire.secretValue(wire.inputsOf("dir1").connection)).toMatchObject({ privateKey: FAKE_KEY });
  expect(wire.inputsOf("dir1").installPackages).toBe(true);
  // Computed outputs are registered as unset inputs, so the engine expects them back from the provider.
  for (const computed of ["kernelRelease", "ipvsadmVersion", "schedulers"]) {
    expect(wire.inputsOf("dir1")).not.toHaveProperty(computed);
  }
  wire.expectNoSecretOutsideSecrets();
  expect(await pulumi.isSecret(dir1.connection)).toBe(true);
});

test("the __urn input is the director's URN, qualified by its parent's type when it has one", () =>
  wire.expectUrnInputs(
    "Director",
    (name, opts) => new Director(name, { connection: wire.connection("198.51.100.13") }, opts),
  ));

test("a director reference names its connection: the resource's output, or the connection given", async () => {
  const plain = { host: "198.51.100.15", insecureSkipHostKeyCheck: true };
  expect(directorConnection(plain)).toBe(plain);
  const director = new Director("ref", { connection: plain });
  const named = directorConnection(director);
  expect(named).toBe(director.connection);
  expect(await wire.value(named as pulumi.Output<unknown>)).toEqual(plain);
});
