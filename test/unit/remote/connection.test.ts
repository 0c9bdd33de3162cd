// How a connection is named and what it holds secret (connection.ts).
import {
  DEFAULT_DIAL_ERROR_LIMIT,
  DEFAULT_PER_DIAL_TIMEOUT_SECONDS,
  DEFAULT_PORT,
  DEFAULT_USER,
  connectionKey,
  connectionSecrets,
  endpointOf,
  portOf,
  userOf,
} from "../../../provider/remote/connection";

test("connection secrets include the jump chain", () => {
  const spec = { host: "a", password: "p1", proxy: { host: "b", privateKey: "KEY", privateKeyPassword: "p2" } };
  expect(connectionSecrets(spec).sort()).toEqual(["KEY", "p1", "p2"]);
  expect(connectionKey(spec)).toBe("root@a:22 via root@b:22");
});

test("defaults are the README's: port 22, user root, 10 dial attempts of 15 s", () => {
  expect([DEFAULT_PORT, DEFAULT_USER, DEFAULT_DIAL_ERROR_LIMIT, DEFAULT_PER_DIAL_TIMEOUT_SECONDS]).toEqual([
    22,
    "root",
    10,
    15,
  ]);
  expect([portOf({ host: "lb1" }), userOf({ host: "lb1" })]).toEqual([22, "root"]);
  expect([portOf({ host: "lb1", port: 2222 }), userOf({ host: "lb1", user: "ops" })]).toEqual([2222, "ops"]);
});

test("IPv6 hosts are bracketed in endpoints and keys; names and IPv4 are not", () => {
  expect(endpointOf({ host: "2001:db8::11" })).toBe("[2001:db8::11]:22");
  expect(endpointOf({ host: "198.51.100.11", port: 2222 })).toBe("198.51.100.11:2222");
  expect(connectionKey({ host: "2001:db8::11", user: "ops", port: 2222 })).toBe("ops@[2001:db8::11]:2222");
});

test("a key names every jump host of a nested chain, nearest first", () => {
  const spec = {
    host: "198.51.100.11",
    proxy: { host: "bastion", user: "hop", proxy: { host: "2001:db8::1", port: 2200 } },
  };
  expect(connectionKey(spec)).toBe("root@198.51.100.11:22 via hop@bastion:22 via root@[2001:db8::1]:2200");
});

test("secrets: every credential of every hop, none for what is absent or empty", () => {
  expect(connectionSecrets({ host: "a", agentSocketPath: "/run/agent.sock" })).toEqual([]);
  expect(
    connectionSecrets({ host: "a", password: "", proxy: { host: "b", proxy: { host: "c", password: "p3" } } }),
  ).toEqual(["p3"]);
});
