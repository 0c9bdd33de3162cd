import * as pulumi from "@pulumi/pulumi";
import { Director } from "../../../provider/resources/director";
import { HAPair } from "../../../provider/resources/ha-pair";
import { FAKE_HOST_KEY } from "../fixtures/lab-hosts";
import * as wire from "./registrations";

beforeAll(wire.recordRegistrations);

const pairOf = (
  primary: Director | ReturnType<typeof wire.connection>,
  backup: Director | ReturnType<typeof wire.connection>,
) => ({
  primary: { director: primary, interface: "eth0" },
  backup: { director: backup, interface: "eth1", priority: 90 },
  virtualRouterId: 51,
  vips: ["198.51.100.40"],
});

test("a pair registers as lvs:HAPair with its provider; members and the VRRP password secrets, absent ones absent", async () => {
  const dir1 = new Director("dir1", { connection: wire.connection("198.51.100.11") });
  const dir2 = new Director("dir2", { connection: { host: "198.51.100.12", hostKey: FAKE_HOST_KEY, password: "pw" } });
  const pair = new HAPair("pair", { ...pairOf(dir1, dir2), authentication: { password: "10" } });
  const unauthenticated = new HAPair("open-pair", {
    ...pairOf(dir1, dir2),
    virtualRouterId: 52,
    authentication: pulumi.output(undefined),
  });
  await Promise.all([wire.value(pair.urn), wire.value(unauthenticated.urn)]);

  expect(wire.sent.get("pair")).toMatchObject({
    type: "pulumi-nodejs:dynamic/lvs:HAPair",
    additionalSecretOutputs: ["primary", "backup", "authentication"],
  });
  expect(wire.providerKind("pair")).toBe("haPair");
  expect(wire.secretKeys("pair")).toEqual(["authentication", "backup", "primary"]);
  expect(wire.secretKeys("open-pair")).toEqual(["backup", "primary"]);
  expect(wire.inputsOf("open-pair")).not.toHaveProperty("authentication");
  expect(wire.secretValue(wire.inputsOf("pair").authentication)).toEqual({ password: "10" });
  expect(wire.inputsOf("pair")).toMatchObject({ virtualRouterId: 51, vips: ["198.51.100.40"] });
  wire.expectNoSecretOutsideSecrets();
});

test("a member's director, a Director resource or a connection, is wire.sent as the member's connection", async () => {
  const dir1 = new Director("dir1", { connection: wire.connection("198.51.100.11") });
  const pair = new HAPair("mixed", pairOf(dir1, wire.connection("198.51.100.12")));
  await wire.value(pair.urn);
  expect(wire.secretValue(wire.inputsOf("mixed").primary)).toEqual({
    connection: wire.connection("198.51.100.11"),
    interface: "eth0",
  });
  expect(wire.secretValue(wire.inputsOf("mixed").backup)).toEqual({
    connection: wire.connection("198.51.100.12"),
    interface: "eth1",
    priority: 90,
  });
});

test("the __urn input is the pair's URN, qualified by its parent's type when it has one", () =>
  wire.expectUrnInputs(
    "HAPair",
    (name, opts) => new HAPair(name, pairOf(wire.connection("198.51.100.11"), wire.connection("198.51.100.12")), opts),
  ));
