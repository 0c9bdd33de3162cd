import { validateInputs } from "../../../provider/schemas/validate-inputs";
import { directorInputsSchema } from "../../../provider/schemas/director";
import { realServerInputsSchema } from "../../../provider/schemas/real-server";
import { virtualServiceInputsSchema } from "../../../provider/schemas/virtual-service";

const director = { host: "192.0.2.10", hostKey: "SHA256:" + "A".repeat(43) };
const service = { directors: [director], protocol: "tcp", address: "203.0.113.101", port: 80, scheduler: "rr" };
const realServer = {
  directors: [director],
  service: { protocol: "tcp", address: "203.0.113.101", port: 80 },
  address: "198.51.100.131",
};

function failuresOf(schema: Parameters<typeof validateInputs>[0], raw: unknown) {
  return validateInputs(schema, raw).failures;
}

// Each row: a bad input, the property it must be reported on, and text the reason must contain.
const cases: [string, () => Parameters<typeof validateInputs>[0], unknown, string, string][] = [
  [
    "weight out of range",
    realServerInputsSchema,
    { ...realServer, weight: 70000 },
    "weight",
    "weight: 70000 is out of range 0..65535",
  ],
  ["negative weight", realServerInputsSchema, { ...realServer, weight: -1 }, "weight", "weight: -1 is out of range"],
  [
    "fractional weight",
    realServerInputsSchema,
    { ...realServer, weight: 1.5 },
    "weight",
    "weight: 1.5 is not an integer",
  ],
  ["port 0", virtualServiceInputsSchema, { ...service, port: 0 }, "port", "port: 0 is out of range 1..65535"],
  ["port as string", virtualServiceInputsSchema, { ...service, port: "80" }, "port", 'port: "80" is not a number'],
  [
    "unknown scheduler",
    virtualServiceInputsSchema,
    { ...service, scheduler: "fastest" },
    "scheduler",
    'scheduler: "fastest" is not a known scheduler; allowed: rr, wrr, lc, wlc',
  ],
  [
    "injected VIP",
    virtualServiceInputsSchema,
    { ...service, address: "1.2.3.4;reboot" },
    "address",
    'address: "1.2.3.4;reboot" is not an IPv4 or IPv6 address',
  ],
  [
    "VIP with a prefix",
    virtualServiceInputsSchema,
    { ...service, address: "203.0.113.0/24" },
    "address",
    '"203.0.113.0/24" is not an IPv4',
  ],
  ["IPv6 zone id", virtualServiceInputsSchema, { ...service, address: "fe80::1%eth0" }, "address", '"fe80::1%eth0"'],
  [
    "unknown protocol",
    virtualServiceInputsSchema,
    { ...service, protocol: "icmp" },
    "protocol",
    'protocol: "icmp" is not a known protocol; allowed: tcp, udp, sctp',
  ],
  [
    "fwmark with port",
    virtualServiceInputsSchema,
    { directors: [director], fwmark: 5, port: 80 },
    "port",
    "port: 80 is not allowed with fwmark",
  ],
  [
    "fwmark with address",
    virtualServiceInputsSchema,
    { directors: [director], fwmark: 5, address: "203.0.113.1" },
    "address",
    'address: "203.0.113.1" is not allowed with fwmark',
  ],
  [
    "fwmark 0",
    virtualServiceInputsSchema,
    { directors: [director], fwmark: 0 },
    "fwmark",
    "fwmark: 0 is out of range 1..4294967295",
  ],
  [
    "fwmark too big",
    virtualServiceInputsSchema,
    { directors: [director], fwmark: 2 ** 32 },
    "fwmark",
    "fwmark: 4294967296 is out of range",
  ],
  [
    "match without fwmark",
    virtualServiceInputsSchema,
    { ...service, match: { protocol: "tcp", addresses: ["203.0.113.101"], ports: [80] } },
    "match",
    "match: (object) is only for fwmark services",
  ],
  [
    "match port out of range",
    virtualServiceInputsSchema,
    { directors: [director], fwmark: 5, match: { protocol: "tcp", addresses: ["198.51.100.51"], ports: [80, 70000] } },
    "match.ports.1",
    "match.ports.1: 70000 is not a port 1..65535 or a range low-high like 8000-8100",
  ],
  [
    "match port range backwards",
    virtualServiceInputsSchema,
    {
      directors: [director],
      fwmark: 5,
      match: { protocol: "tcp", addresses: ["198.51.100.51"], ports: ["9000-8000"] },
    },
    "match.ports.0",
    'match.ports.0: "9000-8000" is not a port 1..65535 or a range',
  ],
  [
    "match port range with shell text",
    virtualServiceInputsSchema,
    {
      directors: [director],
      fwmark: 5,
      match: { protocol: "tcp", addresses: ["198.51.100.51"], ports: ["80;reboot"] },
    },
    "match.ports.0",
    'match.ports.0: "80;reboot" is not a port',
  ],
  [
    "match without ports",
    virtualServiceInputsSchema,
    { directors: [director], fwmark: 5, match: { protocol: "tcp", addresses: ["198.51.100.51"], ports: [] } },
    "match.ports",
    "match.ports: [] must list at least one port or port range",
  ],
  [
    "match with an unknown protocol",
    virtualServiceInputsSchema,
    { directors: [director], fwmark: 5, match: { protocol: "icmp", addresses: ["198.51.100.51"], ports: [80] } },
    "match.protocol",
    'match.protocol: "icmp" is not a known protocol',
  ],
  [
    "match VIP not an address",
    virtualServiceInputsSchema,
    { directors: [director], fwmark: 5, match: { protocol: "tcp", addresses: ["198.51.100.0/24"], ports: [80] } },
    "match.addresses.0",
    'match.addresses.0: "198.51.100.0/24" is not an IPv4 or IPv6 address',
  ],
  [
    "match VIP of the other family",
    virtualServiceInputsSchema,
    { directors: [director], fwmark: 5, match: { protocol: "tcp", addresses: ["2001:db8:1::100"], ports: [80] } },
    "match.addresses.0",
    'match.addresses.0: "2001:db8:1::100" is not IPv4 like the service (family inet)',
  ],
  [
    "real server's fwmark match VIP of the other family",
    realServerInputsSchema,
    {
      ...realServer,
      service: { fwmark: 5, family: "inet6", match: { protocol: "tcp", addresses: ["198.51.100.51"], ports: [80] } },
      address: "2001:db8:1::21",
    },
    "service.match.addresses.0",
    'service.match.addresses.0: "198.51.100.51" is not IPv6 like the service (family inet6)',
  ],
  [
    "family without fwmark",
    virtualServiceInputsSchema,
    { ...service, family: "inet6" },
    "family",
    'family: "inet6" is only for fwmark services',
  ],
  [
    "sh-port with rr",
    virtualServiceInputsSchema,
    { ...service, schedulerFlags: ["sh-port"] },
    "schedulerFlags.0",
    'schedulerFlags.0: "sh-port" needs scheduler "sh"',
  ],
  [
    "mh-fallback with sh",
    virtualServiceInputsSchema,
    { ...service, scheduler: "sh", schedulerFlags: ["mh-fallback"] },
    "schedulerFlags.0",
    '"mh-fallback" needs scheduler "mh"',
  ],
  [
    "unknown flag",
    virtualServiceInputsSchema,
    { ...service, schedulerFlags: ["sticky"] },
    "schedulerFlags.0",
    '"sticky" is not a known scheduler flag',
  ],
  [
    "IPv6 netmask on IPv4 VIP",
    virtualServiceInputsSchema,
    { ...service, persistence: { timeoutSeconds: 60, netmask: 64 } },
    "persistence.netmask",
    "persistence.netmask: 64 does not fit the IPv4 service",
  ],
  [
    "dotted netmask on IPv6 VIP",
    virtualServiceInputsSchema,
    { ...service, address: "2001:db8::1", persistence: { timeoutSeconds: 60, netmask: "255.255.255.0" } },
    "persistence.netmask",
    '"255.255.255.0" does not fit the IPv6 service',
  ],
  [
    "non-contiguous netmask",
    virtualServiceInputsSchema,
    { ...service, persistence: { timeoutSeconds: 60, netmask: "255.0.255.0" } },
    "persistence.netmask",
    '"255.0.255.0"',
  ],
  [
    "persistence timeout 0",
    virtualServiceInputsSchema,
    { ...service, persistence: { timeoutSeconds: 0 } },
    "persistence.timeoutSeconds",
    "persistence.timeoutSeconds: 0 is out of range 1..2678400",
  ],
  [
    "ops on tcp",
    virtualServiceInputsSchema,
    { ...service, onePacket: true },
    "onePacket",
    "onePacket: true is only valid for udp",
  ],
  [
    "no directors",
    virtualServiceInputsSchema,
    { ...service, directors: [] },
    "directors",
    "directors: [] must list at least one director",
  ],
  [
    "RIP family differs from VIP",
    realServerInputsSchema,
    { ...realServer, address: "2001:db8::11" },
    "address",
    'address: "2001:db8::11" is not IPv4 like the service',
  ],
  [
    "DR port differs",
    realServerInputsSchema,
    { ...realServer, port: 8080 },
    "port",
    "port: 8080 must equal the service port 80 for dr",
  ],
  [
    "port on fwmark real server",
    realServerInputsSchema,
    { ...realServer, service: { fwmark: 5 }, port: 80 },
    "port",
    "port: 80 is not allowed for a fwmark service",
  ],
  [
    "lower above upper",
    realServerInputsSchema,
    { ...realServer, upperThreshold: 10, lowerThreshold: 50 },
    "lowerThreshold",
    "lowerThreshold: 50 must not exceed upperThreshold 10",
  ],
  [
    "fullnat without DIP",
    realServerInputsSchema,
    { ...realServer, forwarding: "fullnat" },
    "snatSource",
    "snatSource: is required for fullnat",
  ],
  [
    "snatSource with dr",
    realServerInputsSchema,
    { ...realServer, snatSource: "198.51.100.1" },
    "snatSource",
    'snatSource: "198.51.100.1" is only for fullnat',
  ],
  [
    "unknown forwarding",
    realServerInputsSchema,
    { ...realServer, forwarding: "masq" },
    "forwarding",
    'forwarding: "masq" is not a known forwarding method; allowed: dr, nat, tun, fullnat',
  ],
  [
    "directorAddress family",
    realServerInputsSchema,
    { ...realServer, forwarding: "nat", directorAddress: "2001:db8::1" },
    "directorAddress",
    '"2001:db8::1" is not IPv4',
  ],
  [
    "bad client prefix",
    realServerInputsSchema,
    { ...realServer, forwarding: "nat", directorAddress: "198.51.100.1", clientPrefix: "10.0.0.0/33" },
    "clientPrefix",
    '"10.0.0.0/33" is not an IPv4 prefix',
  ],
  // ipvsadm's own limits (ipvsadm.c): beyond them the apply would fail after the boot fragment was written.
  [
    "persistence beyond ipvsadm's 31 days",
    virtualServiceInputsSchema,
    { ...service, persistence: { timeoutSeconds: 2678401 } },
    "persistence.timeoutSeconds",
    "persistence.timeoutSeconds: 2678401 is out of range 1..2678400",
  ],
  [
    "upper threshold beyond INT_MAX",
    realServerInputsSchema,
    { ...realServer, upperThreshold: 2 ** 31 },
    "upperThreshold",
    "upperThreshold: 2147483648 is out of range 0..2147483647",
  ],
  [
    "lower threshold beyond INT_MAX",
    realServerInputsSchema,
    { ...realServer, lowerThreshold: 2 ** 31 },
    "lowerThreshold",
    "lowerThreshold: 2147483648 is out of range 0..2147483647",
  ],
  // Addresses no VIP or real server can have: nothing would ever reach them, or they mean "any"/"this host".
  ...(
    [
      ["0.0.0.0", "an unspecified"],
      ["::", "an unspecified"],
      ["127.0.0.5", "a loopback"],
      ["::1", "a loopback"],
      ["224.0.0.18", "a multicast"],
      ["ff02::12", "a multicast"],
      ["169.254.10.1", "a link-local"],
      ["fe80::1", "a link-local"],
      ["255.255.255.255", "a broadcast"],
    ] as const
  ).map(([address, range]): (typeof cases)[number] => [
    `VIP ${address}`,
    virtualServiceInputsSchema,
    { ...service, address },
    "address",
    `address: "${address}" is ${range} address, not usable as a VIP or real server address`,
  ]),
  [
    "IPv4-mapped IPv6 VIP",
    virtualServiceInputsSchema,
    { ...service, address: "::ffff:203.0.113.101" },
    "address",
    'address: "::ffff:203.0.113.101" is an IPv4-mapped IPv6 address: write the IPv4 address 203.0.113.101',
  ],
  [
    "loopback RIP",
    realServerInputsSchema,
    { ...realServer, address: "127.0.0.1" },
    "address",
    'address: "127.0.0.1" is a loopback address',
  ],
  // The DIP a NAT real server routes through and the one fullnat translates to are addresses on the wire too.
  ...(
    [
      ["directorAddress", "nat", "0.0.0.0", "an unspecified"],
      ["directorAddress", "nat", "127.0.0.1", "a loopback"],
      ["directorAddress", "nat", "224.0.0.18", "a multicast"],
      ["directorAddress", "nat", "169.254.0.1", "a link-local"],
      ["directorAddress", "nat", "255.255.255.255", "a broadcast"],
      ["snatSource", "fullnat", "0.0.0.0", "an unspecified"],
      ["snatSource", "fullnat", "127.0.0.1", "a loopback"],
      ["snatSource", "fullnat", "239.1.1.1", "a multicast"],
      ["snatSource", "fullnat", "169.254.0.1", "a link-local"],
    ] as const
  ).map(([field, forwarding, address, range]): (typeof cases)[number] => [
    `${field} ${address}`,
    realServerInputsSchema,
    { ...realServer, forwarding, [field]: address },
    field,
    `${field}: "${address}" is ${range} address, not usable as a director address`,
  ]),
  [
    "IPv4-mapped IPv6 snatSource",
    realServerInputsSchema,
    {
      ...realServer,
      service: { protocol: "tcp", address: "2001:db8::40", port: 80 },
      address: "2001:db8::21",
      forwarding: "fullnat",
      snatSource: "::ffff:198.51.100.66",
    },
    "snatSource",
    'snatSource: "::ffff:198.51.100.66" is an IPv4-mapped IPv6 address: write the IPv4 address 198.51.100.66',
  ],
  [
    "multicast VIP of a real server's service",
    realServerInputsSchema,
    { ...realServer, service: { ...realServer.service, address: "239.1.1.1" } },
    "service.address",
    'service.address: "239.1.1.1" is a multicast address',
  ],
];

describe("validateInputs", () => {
  it.each(cases)("%s", (_name, schema, raw, property, reason) => {
    const failures = failuresOf(schema(), raw);
    expect(failures).toContainEqual({ property, reason: expect.stringContaining(reason) });
  });

  it("accepts a valid virtual service and fills defaults", () => {
    const result = validateInputs(virtualServiceInputsSchema(), service);
    expect(result.failures).toEqual([]);
    expect(result.inputs).toMatchObject({ scheduler: "rr", schedulerFlags: [], onePacket: false });
    expect(result.inputs?.directors[0]).toMatchObject({
      port: 22,
      user: "root",
      sudo: false,
      dialErrorLimit: 10,
      perDialTimeout: 15,
    });
  });

  it("accepts a valid real server and fills defaults", () => {
    const result = validateInputs(realServerInputsSchema(), realServer);
    expect(result.failures).toEqual([]);
    expect(result.inputs).toMatchObject({ weight: 1, forwarding: "dr", upperThreshold: 0, lowerThreshold: 0 });
  });

  it("never puts secret values into a reason", () => {
    const secret = "hunter2-very-secret";
    const failures = failuresOf(directorInputsSchema(), {
      connection: { host: "bad host", password: 42, privateKey: ["x", secret], privateKeyPassword: { secret } },
    });
    expect(failures.map((f) => f.property)).toEqual(
      expect.arrayContaining(["connection.password", "connection.privateKey", "connection.privateKeyPassword"]),
    );
    for (const failure of failures) {
      expect(failure.reason).not.toContain(secret);
      expect(failure.reason).not.toContain("42");
    }
  });

  it("does not print objects, which may hold secrets", () => {
    const failures = failuresOf(virtualServiceInputsSchema(), { ...service, directors: "lb1" });
    expect(failures).toEqual([{ property: "directors", reason: 'directors: "lb1" is not an array' }]);
  });
});

test("checked addresses are canonical (as the kernel lists them), however they were written", () => {
  const vs = validateInputs(virtualServiceInputsSchema(), { ...service, address: "2001:DB8:0::40" }).inputs;
  expect(vs?.address).toBe("2001:db8::40");
  const rs = validateInputs(realServerInputsSchema(), {
    ...realServer,
    service: { protocol: "tcp", address: "2001:DB8::40", port: 80 },
    address: "2001:0db8::0021",
  }).inputs;
  expect(rs?.service.address).toBe("2001:db8::40");
  expect(rs?.address).toBe("2001:db8::21");
});
