import { RealServer } from "../../../provider/resources/real-server";
import { VirtualService } from "../../../provider/resources/virtual-service";
import { Director } from "../../../provider/resources/director";
import * as wire from "./registrations";

beforeAll(wire.recordRegistrations);

const dir1 = () => new Director("dir1", { connection: wire.connection("198.51.100.11") });

test("a real server registers as lvs:RealServer with its provider; directors and its host secrets, none absent", async () => {
  const web = new VirtualService("web", {
    directors: [dir1(), wire.connection("198.51.100.12")],
    address: "198.51.100.40",
  });
  const rs1 = new RealServer("rs1", { service: web, address: "198.51.100.21", host: wire.connection("198.51.100.21") });
  const rs2 = new RealServer("rs2", { service: web, address: "198.51.100.22" });
  await Promise.all([wire.value(rs1.urn), wire.value(rs2.urn)]);

  expect(wire.sent.get("rs1")).toMatchObject({
    type: "pulumi-nodejs:dynamic/lvs:RealServer",
    additionalSecretOutputs: ["directors", "host"],
  });
  expect(wire.providerKind("rs1")).toBe("realServer");
  expect(wire.secretKeys("rs1")).toEqual(["directors", "host"]);
  expect(wire.secretKeys("rs2")).toEqual(["directors"]);
  expect(wire.inputsOf("rs2")).not.toHaveProperty("host");
  expect(wire.secretValue(wire.inputsOf("rs1").host)).toEqual(wire.connection("198.51.100.21"));
  wire.expectNoSecretOutsideSecrets();
});

test("a real server takes its service's identity, directors and whether it is checked from the VirtualService", async () => {
  const directors = [dir1(), wire.connection("198.51.100.12")];
  const web = new VirtualService("web", { directors, protocol: "tcp", address: "198.51.100.40", port: 80 });
  const marked = new VirtualService("marked", {
    directors,
    fwmark: 7,
    family: "inet6",
    match: { protocol: "tcp", addresses: ["2001:db8::40"], ports: ["80"] },
    healthCheck: { type: "tcp" },
  });
  const plain = new RealServer("plain", { service: web, address: "198.51.100.21", weight: 3 });
  const checked = new RealServer("checked", { service: marked, address: "2001:db8::21" });
  await Promise.all([wire.value(plain.urn), wire.value(checked.urn)]);

  // The wire drops unset members: the identity is what the service set.
  expect(wire.inputsOf("plain").service).toEqual({ protocol: "tcp", address: "198.51.100.40", port: 80 });
  expect(wire.inputsOf("checked").service).toEqual({
    fwmark: 7,
    family: "inet6",
    match: { protocol: "tcp", addresses: ["2001:db8::40"], ports: ["80"] },
  });
  const connections = [wire.connection("198.51.100.11"), wire.connection("198.51.100.12")];
  expect(wire.secretValue(wire.inputsOf("plain").directors)).toEqual(connections);
  expect(wire.secretValue(wire.inputsOf("checked").directors)).toEqual(connections);
  expect(wire.inputsOf("plain")).toMatchObject({ serviceChecked: false, address: "198.51.100.21", weight: 3 });
  expect(wire.inputsOf("checked").serviceChecked).toBe(true);
});

test("the __urn input is the real server's URN, qualified by its parent's type when it has one", () => {
  const service = new VirtualService("urn-service", { directors: [], fwmark: 5 });
  return wire.expectUrnInputs(
    "RealServer",
    (name, opts) => new RealServer(name, { service, address: "198.51.100.23" }, opts),
  );
});
