import * as pulumi from "@pulumi/pulumi";
import type { ConnectionArgs } from "../../../provider/resources/connection";
import type { DirectorArgs } from "../../../provider/resources/director";
import type { HAPairArgs } from "../../../provider/resources/ha-pair";
import type { RealServerArgs } from "../../../provider/resources/real-server";
import type { HealthCheckArgs, VirtualServiceArgs } from "../../../provider/resources/virtual-service";
import { connectionSchema } from "../../../provider/schemas/connection";
import { directorInputsSchema } from "../../../provider/schemas/director";
import { healthCheckSchema } from "../../../provider/schemas/health-check";

// The resource argument types are derived from the schemas (resources/args.ts): what a program may write is what
// the provider's check accepts. The compiler (typecheck, and ts-jest here) proves the type side; the @ts-expect-error
// lines fail the build when a type lets a wrong value through.

const connection: ConnectionArgs = {
  host: "198.51.100.11",
  port: pulumi.output(2222),
  user: "lvs",
  sudo: true,
  hostKey: "SHA256:" + "A".repeat(43),
  proxy: { host: "198.51.100.1", insecureSkipHostKeyCheck: true },
};

test("a connection as a program writes it is one the schema accepts", () => {
  const plain = { ...connection, port: 2222 };
  expect(connectionSchema().parse(plain)).toMatchObject({ host: "198.51.100.11", port: 2222, sudo: true });
});

test("a director's arguments, inputs at every level, are the schema's fields", () => {
  const director: DirectorArgs = { connection, timeouts: { tcp: pulumi.output(900) }, sysctls: {} };
  // @ts-expect-error: a field the schema does not know
  const unknownField: DirectorArgs = { connection, timeout: { tcp: 900 } };
  // @ts-expect-error: a number where the schema takes a boolean
  const wrongType: DirectorArgs = { connection, installPackages: 1 };
  expect([unknownField, wrongType]).toHaveLength(2);
  const parsed = directorInputsSchema().parse({ ...director, connection: { ...connection, port: 22 }, timeouts: {} });
  expect(parsed.sysctls).toEqual({ expireNodestConn: true, expireQuiescentTemplate: true });
});

test("a health check is one of the checker types, each with its own fields", () => {
  const http: HealthCheckArgs = { type: "http", path: "/healthz", status: 204 };
  const misc: HealthCheckArgs = { type: "misc", command: ["/usr/local/bin/check", "198.51.100.21"] };
  // @ts-expect-error: a misc check has no path
  const mixed: HealthCheckArgs = { type: "misc", command: ["/bin/true"], path: "/" };
  // @ts-expect-error: not a checker type
  const unknownType: HealthCheckArgs = { type: "icmp" };
  expect([mixed, unknownType]).toHaveLength(2);
  expect(healthCheckSchema().parse(http)).toMatchObject({ type: "http", path: "/healthz", status: 204 });
  expect(healthCheckSchema().parse(misc)).toMatchObject({ type: "misc", dynamicWeight: false });
});

test("directors, the service of a real server and pair members are resources or connections, not schema fields", () => {
  const service: VirtualServiceArgs = { directors: [connection], protocol: "tcp", address: "203.0.113.10", port: 80 };
  // @ts-expect-error: the service comes from the VirtualService resource, not as an identity
  const realServer: RealServerArgs = { service: { protocol: "tcp" }, address: "198.51.100.21" };
  const pair: HAPairArgs = {
    primary: { director: connection, interface: "eth1" },
    backup: { director: connection, interface: "eth1", priority: pulumi.output(90) },
    virtualRouterId: 51,
    vips: ["203.0.113.10", { address: "198.51.100.254", interface: "eth2" }],
  };
  // @ts-expect-error: a member is named by its director, not by a connection field
  const memberByConnection: HAPairArgs["primary"] = { connection, interface: "eth1" };
  expect([service, realServer, pair, memberByConnection]).toHaveLength(4);
});
