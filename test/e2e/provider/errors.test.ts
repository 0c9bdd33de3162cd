// Bad input and bad hosts, through the SDK's provider host: check() names the property, a wrong pinned host key
// refuses to connect, an unreachable host fails after bounded retries. Nothing is changed on any host.
import { PropertyMap, ProviderCallError } from "../../harness/provider-host";
import { labHosts, labTopology } from "../../lab/lab";
import { changeLogLength, connectionTo, LabStack, urnOf } from "./fixture";

describe("errors through the provider host", () => {
  let stack: LabStack;
  beforeAll(async () => {
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const dir1 = connectionTo("dir1");
  const vip = labTopology().freeVips.ipv4[5];
  const service = { directors: [dir1], protocol: "tcp", address: vip, port: 80, scheduler: "wlc" };
  const realServer = {
    directors: [dir1],
    service: { protocol: "tcp", address: vip, port: 80 },
    address: "198.51.100.21",
  };

  const pair = {
    primary: { connection: dir1, interface: "eth0" },
    backup: { connection: connectionTo("dir2"), interface: "eth0" },
    virtualRouterId: 60,
  };
  const cases: [string, "director" | "virtualService" | "realServer" | "haPair", PropertyMap, string, string][] = [
    // Accepted once, breaking a host: refused before anything runs.
    [
      "VIP on a director's own address",
      "virtualService",
      { ...service, address: "198.51.100.11" },
      "address",
      "198.51.100.11",
    ],
    ["RIP equal to its VIP", "realServer", { ...realServer, address: vip }, "address", vip],
    [
      "directorAddress without host",
      "realServer",
      { ...realServer, forwarding: "nat", directorAddress: "198.51.100.66" },
      "directorAddress",
      "198.51.100.66",
    ],
    [
      "HA VIP on a member's own address",
      "haPair",
      { ...pair, vips: ["198.51.100.12"] },
      "vips.0.address",
      "198.51.100.12",
    ],
    ["unknown scheduler", "virtualService", { ...service, scheduler: "fastest" }, "scheduler", "fastest"],
    [
      "VIP with shell metacharacters",
      "virtualService",
      { ...service, address: "1.2.3.4;reboot" },
      "address",
      "1.2.3.4;reboot",
    ],
    ["port out of range", "virtualService", { ...service, port: 70000 }, "port", "70000"],
    ["fwmark with a port", "virtualService", { directors: [dir1], fwmark: 5, port: 80 }, "port", ""],
    ["sh flag on wlc", "virtualService", { ...service, schedulerFlags: ["sh-port"] }, "schedulerFlags.0", "sh"],
    [
      "IPv6 netmask on IPv4",
      "virtualService",
      { ...service, persistence: { timeoutSeconds: 60, netmask: 64 } },
      "persistence.netmask",
      "",
    ],
    ["no directors", "virtualService", { ...service, directors: [] }, "directors", ""],
    ["weight too large", "realServer", { ...realServer, weight: 70000 }, "weight", "70000"],
    ["negative weight", "realServer", { ...realServer, weight: -1 }, "weight", "-1"],
    [
      "lower above upper",
      "realServer",
      { ...realServer, upperThreshold: 10, lowerThreshold: 20 },
      "lowerThreshold",
      "",
    ],
    ["DR port mapping", "realServer", { ...realServer, port: 8080, forwarding: "dr" }, "port", "8080"],
    ["family mismatch", "realServer", { ...realServer, address: "2001:db8:1::21" }, "address", "2001:db8:1::21"],
    ["fullnat without source", "realServer", { ...realServer, forwarding: "fullnat" }, "snatSource", ""],
    ["unknown forwarding", "realServer", { ...realServer, forwarding: "bridge" }, "forwarding", "bridge"],
    ["RIP not an address", "realServer", { ...realServer, address: "rs1.example" }, "address", "rs1.example"],
    ["unpinned host key", "director", { connection: { host: "198.51.100.11" } }, "connection.hostKey", ""],
    [
      "malformed host key",
      "director",
      { connection: { ...dir1, hostKey: "md5:abc" } },
      "connection.hostKey",
      "md5:abc",
    ],
    ["bad SSH port", "director", { connection: { ...dir1, port: 0 } }, "connection.port", "0"],
  ];

  test.each(cases)("%s: check() fails naming the property", async (_title, kind, inputs, property, value) => {
    const result = await stack.host.check(urnOf("bad", kind), {}, { ...inputs, __provider: stack.providerText(kind) });
    expect(result.failures.map((f) => f.property)).toContain(property);
    const reason = result.failures.find((f) => f.property === property)?.reason ?? "";
    expect(reason).toContain(property.split(".").pop() ?? property);
    if (value) expect(reason).toContain(value);
    // A private key never appears in a reason.
    expect(JSON.stringify(result.failures)).not.toContain("PRIVATE KEY");
  });

  test("the serialized provider is a small stub that loads the installed runtime", () => {
    for (const kind of ["director", "virtualService", "realServer"] as const) {
      const text = stack.providerText(kind);
      expect(text.length).toBeLessThan(4096);
      expect(text).toContain('require("lvs-pulumi/runtime")');
    }
  });

  test("a wrong pinned host key refuses to connect, naming both fingerprints; nothing runs on the host", async () => {
    const before = await changeLogLength("dir1");
    const wrong = "SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const props = { connection: { ...dir1, hostKey: wrong }, __provider: stack.providerText("director") };
    const checked = await stack.host.check(urnOf("wrongkey", "director"), {}, props);
    const error = await stack.host.create(urnOf("wrongkey", "director"), checked.inputs).catch((e: Error) => e);
    expect(String(error)).toContain(wrong);
    expect(String(error)).toContain(labHosts().hosts.dir1.connection.hostKey);
    expect(String(error)).not.toContain("PRIVATE KEY");
    expect(await changeLogLength("dir1")).toBe(before);
  });

  test("an unreachable host fails with a clear error after the configured number of attempts", async () => {
    const props = {
      connection: { ...dir1, host: "198.51.100.50", dialErrorLimit: 3, perDialTimeout: 3 },
      __provider: stack.providerText("director"),
    };
    const urn = urnOf("unreachable", "director");
    const checked = await stack.host.check(urn, {}, props);
    const stderrBefore = stack.host.stderr.length;
    const started = Date.now();
    const error = await stack.host.create(urn, checked.inputs).catch((e: Error) => e);
    expect(String(error)).toMatch(/198\.51\.100\.50:22.*unreachable after 3 attempts/);
    expect(Date.now() - started).toBeLessThan(60_000);
    // A delete (the SDK's host prints its failures to stderr, the engine shows them) fails at once: the host's dial
    // budget is spent once per provider process.
    const removal = await stack.host.delete(urn, "director:198.51.100.50:22", checked.inputs).catch((e: Error) => e);
    for (const failed of [error, removal]) {
      // What the engine shows: the error's details (ProviderCallError adds the method).
      const lines = (failed as ProviderCallError).details.split("\n");
      process.stdout.write(`unreachable host, as the operator reads it:\n${lines.join("\n")}\n`);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^host 198\.51\.100\.50:22 unreachable after 3 attempts: /);
      expect(lines[1]).toMatch(/^ {2}to fix: check the network path to 198\.51\.100\.50:22 and its sshd/);
    }
    // Once, in the error itself: no copy on the host's stderr, no stack trace.
    const stderr = stack.host.stderr.slice(stderrBefore);
    expect(stderr.filter((line) => line.includes("198.51.100.50"))).toEqual([]);
    expect(stderr.filter((line) => /^\s+at /.test(line))).toEqual([]);
  });
});
