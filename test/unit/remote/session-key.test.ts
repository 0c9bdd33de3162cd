// The session key: what decides trust and identity, with credentials only as a digest.
import { ConnectionSpec } from "../../../provider/remote/connection";
import { sessionKey } from "../../../provider/remote/session-key";

const base: ConnectionSpec = { host: "lb1", user: "ops", password: "hunter2-pw", hostKey: "SHA256:abc" };

test("specs that agree on trust and identity share a key, whatever their dial settings", () => {
  expect(sessionKey({ ...base })).toBe(sessionKey(base));
  expect(sessionKey({ ...base, dialErrorLimit: 2, perDialTimeout: 1 })).toBe(sessionKey(base));
  expect(sessionKey({ ...base, sudo: false })).toBe(sessionKey(base));
  expect(sessionKey(base)).toMatch(/^ops@lb1:22#/);
});

test.each<[string, Partial<ConnectionSpec>]>([
  ["sudo", { sudo: true }],
  ["skipping the host key check", { hostKey: undefined, insecureSkipHostKeyCheck: true }],
  ["another pinned host key", { hostKey: "SHA256:def" }],
  ["a known_hosts file", { hostKey: undefined, knownHostsPath: "/etc/ssh/ssh_known_hosts" }],
  ["another password", { password: "other-pw" }],
  ["a private key", { password: undefined, privateKey: "PRIVATE-KEY-PEM" }],
  ["a key passphrase", { privateKey: "PRIVATE-KEY-PEM", privateKeyPassword: "key-pass" }],
  ["an agent", { password: undefined, agentSocketPath: "/run/agent.sock" }],
  ["a jump host", { proxy: { host: "bastion", insecureSkipHostKeyCheck: true } }],
])("%s makes another key", (_, over) => {
  expect(sessionKey({ ...base, ...over })).not.toBe(sessionKey(base));
});

test("jump hosts that differ in trust make different keys", () => {
  const via = (proxy: ConnectionSpec) => sessionKey({ ...base, proxy });
  expect(via({ host: "bastion", hostKey: "SHA256:j" })).not.toBe(
    via({ host: "bastion", insecureSkipHostKeyCheck: true }),
  );
  expect(via({ host: "bastion", password: "a" })).not.toBe(via({ host: "bastion", password: "b" }));
});

test("no credential is in the key in clear", () => {
  const secrets = { password: "hunter2-pw", privateKey: "PRIVATE-KEY-PEM", privateKeyPassword: "key-pass" };
  const key = sessionKey({ ...base, ...secrets, proxy: { host: "bastion", password: "jump-pw" } });
  for (const secret of [...Object.values(secrets), "jump-pw"]) expect(key).not.toContain(secret);
});
