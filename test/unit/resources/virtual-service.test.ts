import * as pulumi from "@pulumi/pulumi";
import { Director } from "../../../provider/resources/director";
import { VirtualService } from "../../../provider/resources/virtual-service";
import * as wire from "./registrations";

beforeAll(wire.recordRegistrations);

test("a service registers as lvs:VirtualService with its provider; its directors, resources or not, a secret", async () => {
  const dir1 = new Director("dir1", { connection: wire.connection("198.51.100.11") });
  const web = new VirtualService("web", {
    directors: [dir1, wire.connection("198.51.100.12")],
    protocol: "tcp",
    address: "198.51.100.40",
    port: 80,
    scheduler: "rr",
  });
  await wire.value(web.urn);

  expect(wire.sent.get("web")).toMatchObject({
    type: "pulumi-nodejs:dynamic/lvs:VirtualService",
    additionalSecretOutputs: ["directors"],
  });
  expect(wire.providerKind("web")).toBe("virtualService");
  expect(wire.secretKeys("web")).toEqual(["directors"]);
  // A Director resource is wire.sent as its connection, in the order given.
  expect(wire.secretValue(wire.inputsOf("web").directors)).toEqual([
    wire.connection("198.51.100.11"),
    wire.connection("198.51.100.12"),
  ]);
  expect(wire.inputsOf("web")).toMatchObject({ protocol: "tcp", address: "198.51.100.40", port: 80, scheduler: "rr" });
  wire.expectNoSecretOutsideSecrets();
  expect(await pulumi.isSecret(web.directors)).toBe(true);
});

test("the __urn input is the service's URN, qualified by its parent's type when it has one", () =>
  wire.expectUrnInputs("VirtualService", (name, opts) => new VirtualService(name, { directors: [], fwmark: 5 }, opts)));
