import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { validateInputs } from "../../../provider/schemas/validate-inputs";
import { connectionSchema, hostKey } from "../../../provider/schemas/connection";

const director = { host: "192.0.2.10", hostKey: "SHA256:" + "A".repeat(43) };

function failuresOf(raw: unknown) {
  return validateInputs(connectionSchema(), raw).failures;
}

// Each row: a bad connection, the property it must be reported on, and text the reason must contain.
const cases: [string, unknown, string, string][] = [
  [
    "host with shell metacharacters",
    { ...director, host: "lb1;rm -rf /" },
    "host",
    'host: "lb1;rm -rf /" is not an IP address or host name',
  ],
  ["ssh port out of range", { ...director, port: 70000 }, "port", "port: 70000 is out of range 1..65535"],
  ["bad user", { ...director, user: "Root$" }, "user", 'user: "Root$" is not a valid user name'],
  [
    "bad host key",
    { ...director, hostKey: "MD5:aa:bb" },
    "hostKey",
    'hostKey: "MD5:aa:bb" is not a host key fingerprint',
  ],
  ["unpinned host key", { host: "192.0.2.10" }, "hostKey", "hostKey: is required: pin the host key"],
  ["unpinned jump host", { ...director, proxy: { host: "192.0.2.1" } }, "proxy.hostKey", "proxy.hostKey: is required"],
];

describe("connection checks", () => {
  it.each(cases)("%s", (_name, raw, property, reason) => {
    expect(failuresOf(raw)).toContainEqual({ property, reason: expect.stringContaining(reason) });
  });

  it.each([["198.51.100.11"], ["2001:db8::11"], ["lb1"], ["lb-1.example.com"], ["LB1.Example.COM"], ["a.b2"]])(
    "takes %s as a host",
    (host) => {
      expect(failuresOf({ ...director, host })).toEqual([]);
    },
  );

  // A name whose last label is all digits would be a malformed address, not a host name.
  it.each([["999.1.1.1"], ["198.51.100"], ["-lb1"], ["lb1-"], ["lb_1"], ["lb1."], ["a".repeat(64)], [""]])(
    "refuses %s as a host",
    (host) => {
      expect(failuresOf({ ...director, host })).toEqual([
        { property: "host", reason: expect.stringContaining("is not an IP address or host name") },
      ]);
    },
  );

  it("takes a fingerprint as ssh-keygen -lf prints it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "host-key-"));
    try {
      execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", path.join(dir, "key")]);
      const printed = execFileSync("ssh-keygen", ["-lf", path.join(dir, "key.pub")], { encoding: "utf8" });
      const fingerprint = printed.split(" ")[1];
      expect(failuresOf({ host: "192.0.2.10", hostKey: fingerprint })).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });

  it("needs host key verification unless told otherwise, on the host and on its jump host alike", () => {
    expect(failuresOf({ host: "192.0.2.10", knownHostsPath: "/home/deploy/.ssh/known_hosts" })).toEqual([]);
    expect(failuresOf({ host: "192.0.2.10", insecureSkipHostKeyCheck: true })).toEqual([]);
    expect(failuresOf({ ...director, proxy: { host: "192.0.2.1", insecureSkipHostKeyCheck: true } })).toEqual([]);
    expect(failuresOf({ host: "192.0.2.10", insecureSkipHostKeyCheck: false })).toEqual([
      { property: "hostKey", reason: expect.stringContaining("is required") },
    ]);
  });

  it("refuses an empty path, or one with a newline, for the agent socket and known_hosts", () => {
    for (const field of ["agentSocketPath", "knownHostsPath"]) {
      expect(failuresOf({ ...director, [field]: "" })).toEqual([
        { property: field, reason: `${field}: "" must not be empty` },
      ]);
      expect(failuresOf({ ...director, [field]: "/tmp/a\nb" })).toEqual([
        { property: field, reason: `${field}: "/tmp/a\\nb" must not contain NUL or newline` },
      ]);
    }
  });

  it("keeps dial limits in their ranges", () => {
    expect(failuresOf({ ...director, dialErrorLimit: 0 })).toEqual([
      { property: "dialErrorLimit", reason: "dialErrorLimit: 0 is out of range 1..1000" },
    ]);
    expect(failuresOf({ ...director, perDialTimeout: 3601 })).toEqual([
      { property: "perDialTimeout", reason: "perDialTimeout: 3601 is out of range 1..3600" },
    ]);
  });
});

test("fills the defaults, the jump host's too", () => {
  const parsed = connectionSchema().parse({
    ...director,
    proxy: { host: "203.0.113.5", insecureSkipHostKeyCheck: true },
  });
  const defaults = { port: 22, user: "root", dialErrorLimit: 10, perDialTimeout: 15, insecureSkipHostKeyCheck: false };
  expect(parsed).toEqual({ ...director, ...defaults, sudo: false, proxy: expect.anything() });
  expect(parsed.proxy).toEqual({ host: "203.0.113.5", ...defaults, insecureSkipHostKeyCheck: true });
});

test("is built once and shared", () => {
  expect(connectionSchema()).toBe(connectionSchema());
});

describe("hostKey: one key per sshd, however the host is written", () => {
  it("is host:port, port 22 when omitted", () => {
    expect(hostKey({ host: "198.51.100.11" })).toBe("198.51.100.11:22");
    expect(hostKey({ host: "198.51.100.11", port: 2222 })).toBe("198.51.100.11:2222");
  });

  it("writes an IPv6 address as the kernel prints it, in brackets", () => {
    expect(hostKey({ host: "2001:DB8:0::11", port: 22 })).toBe("[2001:db8::11]:22");
    expect(hostKey({ host: "2001:db8::11" })).toBe(hostKey({ host: "2001:0db8:0:0::11" }));
  });

  it("writes a host name in lower case (DNS names are case-insensitive)", () => {
    expect(hostKey({ host: "LB1.Example.com" })).toBe("lb1.example.com:22");
  });
});
