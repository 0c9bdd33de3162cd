import { validateInputs } from "../../../provider/schemas/validate-inputs";
import { realServerInputsSchema } from "../../../provider/schemas/real-server";
import { virtualServiceInputsSchema } from "../../../provider/schemas/virtual-service";

const director = { host: "198.51.100.11", hostKey: "SHA256:" + "A".repeat(43) };
const service = { directors: [director], protocol: "tcp", address: "198.51.100.40", port: 80 };
const http = { type: "http", path: "/health" };
const realServer = {
  directors: [director],
  service: { protocol: "tcp", address: "198.51.100.40", port: 80 },
  address: "198.51.100.21",
};

// Each row: bad input, the property it is reported on, text the reason contains.
const cases: [string, () => Parameters<typeof validateInputs>[0], unknown, string, string][] = [
  [
    "unknown checker",
    virtualServiceInputsSchema,
    { ...service, healthCheck: { type: "ping" } },
    "healthCheck.type",
    "ping",
  ],
  [
    "path without /",
    virtualServiceInputsSchema,
    { ...service, healthCheck: { ...http, path: "health" } },
    "healthCheck.path",
    'must start with "/"',
  ],
  [
    "path with a blank",
    virtualServiceInputsSchema,
    { ...service, healthCheck: { ...http, path: "/a b" } },
    "healthCheck.path",
    "no blanks",
  ],
  [
    "path with a brace",
    virtualServiceInputsSchema,
    { ...service, healthCheck: { ...http, path: "/}" } },
    "healthCheck.path",
    "{, }",
  ],
  [
    "status out of range",
    virtualServiceInputsSchema,
    { ...service, healthCheck: { ...http, status: 99 } },
    "healthCheck.status",
    "99",
  ],
  [
    "digest not MD5",
    virtualServiceInputsSchema,
    { ...service, healthCheck: { ...http, digest: "xyz" } },
    "healthCheck.digest",
    "MD5",
  ],
  [
    "misc without program",
    virtualServiceInputsSchema,
    { ...service, healthCheck: { type: "misc", command: [] } },
    "healthCheck.command",
    "must name a program",
  ],
  [
    "misc relative program",
    virtualServiceInputsSchema,
    { ...service, healthCheck: { type: "misc", command: ["check.sh"] } },
    "healthCheck.command",
    "absolute path",
  ],
  [
    "dns unknown record",
    virtualServiceInputsSchema,
    { ...service, healthCheck: { type: "dns", name: "lab.example", recordType: "ANY" } },
    "healthCheck.recordType",
    "ANY",
  ],
  [
    "interval 0",
    virtualServiceInputsSchema,
    { ...service, healthCheck: { type: "tcp", intervalSeconds: 0 } },
    "healthCheck.intervalSeconds",
    "0",
  ],
  [
    "sorry server unchecked",
    virtualServiceInputsSchema,
    { ...service, sorryServer: { address: "198.51.100.30" } },
    "sorryServer",
    "needs healthCheck",
  ],
  ["quorum unchecked", virtualServiceInputsSchema, { ...service, quorum: 2 }, "quorum", "needs healthCheck"],
  [
    "hysteresis at quorum",
    virtualServiceInputsSchema,
    { ...service, healthCheck: http, quorum: 2, hysteresis: 2 },
    "hysteresis",
    "below quorum (2)",
  ],
  [
    "sorry server other family",
    virtualServiceInputsSchema,
    { ...service, healthCheck: http, sorryServer: { address: "2001:db8:1::30" } },
    "sorryServer.address",
    "address family",
  ],
  [
    "fwmark check without port",
    virtualServiceInputsSchema,
    { directors: [director], fwmark: 7, healthCheck: { type: "tcp" } },
    "healthCheck.port",
    "fwmark",
  ],
  [
    "quorum notification unchecked",
    virtualServiceInputsSchema,
    { ...service, notifyQuorumDown: ["/usr/local/bin/page"] },
    "notifyQuorumDown",
    "needs healthCheck",
  ],
  [
    "quorum notification by relative path",
    virtualServiceInputsSchema,
    { ...service, healthCheck: http, notifyQuorumUp: ["page", "up"] },
    "notifyQuorumUp",
    "absolute path",
  ],
  [
    "real server notification, service unchecked",
    realServerInputsSchema,
    { ...realServer, notifyDown: ["/usr/local/bin/page"] },
    "notifyDown",
    "needs a service with a healthCheck",
  ],
  [
    "real server notification without a program",
    realServerInputsSchema,
    { ...realServer, serviceChecked: true, notifyUp: [] },
    "notifyUp",
    "must name a program",
  ],
  [
    "real server check, service unchecked",
    realServerInputsSchema,
    { ...realServer, healthCheck: { type: "tcp" } },
    "healthCheck",
    "needs a service with a healthCheck",
  ],
];

describe.each(cases)("%s", (_name, schema, raw, property, reason) => {
  it(`is refused on ${property}`, () => {
    const result = validateInputs(schema(), raw);
    expect(result.inputs).toBeUndefined();
    const failure = result.failures.find((f) => f.property === property);
    expect(failure?.reason).toContain(reason);
  });
});

test("defaults: checks every 6 s, one retry after 1 s, 5 s connect timeout; alpha unless startHealthy", () => {
  const inputs = validateInputs(virtualServiceInputsSchema(), { ...service, healthCheck: { type: "tcp" } }).inputs;
  expect(inputs?.healthCheck).toEqual({
    type: "tcp",
    intervalSeconds: 6,
    connectTimeoutSeconds: 5,
    retries: 1,
    delayBeforeRetrySeconds: 1,
    inhibitOnFailure: false,
  });
  expect(inputs?.startHealthy).toBe(false);
  const rs = validateInputs(realServerInputsSchema(), {
    ...realServer,
    serviceChecked: true,
    healthCheck: { type: "tcp" },
  });
  expect(rs.failures).toEqual([]);
});
