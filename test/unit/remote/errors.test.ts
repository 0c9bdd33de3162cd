// The error types callers branch on (errors.ts): what each message says, and what the fields keep. The errors the
// layer throws carry host, command, status and output with every secret masked (the thrower masks: exec.ts).
import {
  AuthenticationError,
  CommandTimeoutError,
  ConnectionLostError,
  HostKeyVerificationError,
  HostUnreachableError,
  RemoteCommandError,
} from "../../../provider/remote/errors";
import { exec } from "../../../provider/remote/exec";
import { PASSWORD } from "./fake-ssh-server";
import { useFakeHosts } from "./harness";

describe("RemoteCommandError", () => {
  test("names host, exit code and command, then the trimmed stderr; the fields keep the output as it was", () => {
    const err = new RemoteCommandError("ops@lb1:22", "ipvsadm -A", 2, "partial\n", "\n  Memory allocation problem\n");
    expect(err.message).toBe("command failed on ops@lb1:22 (exit code 2): ipvsadm -A\nMemory allocation problem");
    expect(err).toMatchObject({ host: "ops@lb1:22", command: "ipvsadm -A", code: 2, stdout: "partial\n" });
    expect(err.stderr).toBe("\n  Memory allocation problem\n");
    expect(err).toBeInstanceOf(Error);
    expect(String(err)).toMatch(/^RemoteCommandError: command failed/);
  });

  test("stdout stands in for an empty stderr; with neither the message is one line", () => {
    expect(new RemoteCommandError("h", "c", 1, "only out\n", " \n").message).toBe(
      "command failed on h (exit code 1): c\nonly out",
    );
    expect(new RemoteCommandError("h", "c", 1, "", "").message).toBe("command failed on h (exit code 1): c");
  });

  test("a command killed by a signal names the signal", () => {
    expect(new RemoteCommandError("h", "c", null, "", "", "KILL").message).toBe("command failed on h (signal KILL): c");
    expect(new RemoteCommandError("h", "c", null, "", "").message).toBe("command failed on h (signal unknown): c");
  });

  test("long output is cut to its last 2000 characters in the message, kept whole on the error", () => {
    const stderr = `${"x".repeat(5000)}the end`;
    const err = new RemoteCommandError("h", "c", 1, "", stderr);
    const detail = err.message.split("\n")[1];
    expect(detail).toBe(`...${stderr.slice(-2000)}`);
    expect(err.stderr).toBe(stderr);
  });
});

test("HostUnreachableError names endpoint, attempts and the last error, which it keeps as cause", () => {
  const last = new Error("connect ECONNREFUSED 198.51.100.11:22");
  const err = new HostUnreachableError("198.51.100.11:22", 10, last);
  expect(err.message).toBe(
    "host 198.51.100.11:22 unreachable after 10 attempts: connect ECONNREFUSED 198.51.100.11:22",
  );
  expect(err).toMatchObject({
    name: "HostUnreachableError",
    endpoint: "198.51.100.11:22",
    attempts: 10,
    lastError: last,
  });
  expect(err.cause).toBe(last);
  expect(new HostUnreachableError("h:22", 1, "a string").message).toBe(
    "host h:22 unreachable after 1 attempts: a string",
  );
});

test("ConnectionLostError and CommandTimeoutError name the host, the reason or the command and timeout", () => {
  expect(new ConnectionLostError("root@lb1:22", "Keepalive timeout")).toMatchObject({
    name: "ConnectionLostError",
    message: "SSH connection to root@lb1:22 lost: Keepalive timeout",
    host: "root@lb1:22",
    reason: "Keepalive timeout",
  });
  expect(new CommandTimeoutError("root@lb1:22", "sleep 9", 1500)).toMatchObject({
    name: "CommandTimeoutError",
    message: "command timed out after 1.5s on root@lb1:22: sleep 9",
    command: "sleep 9",
    timeoutMs: 1500,
  });
});

test("verification and authentication errors keep their message and say their kind", () => {
  expect(String(new HostKeyVerificationError("bad key"))).toBe("HostKeyVerificationError: bad key");
  expect(String(new AuthenticationError("denied"))).toBe("AuthenticationError: denied");
});

describe("as the layer throws them", () => {
  const hosts = useFakeHosts();

  test("a failed command: host, command, exit code and stderr, with the password and call secrets masked", async () => {
    const spec = hosts.spec();
    const err = await exec(spec, `echo "login ${PASSWORD} token-9" >&2; exit 4`, { secrets: ["token-9"] }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(RemoteCommandError);
    expect(err.message).toBe(
      `command failed on tester@127.0.0.1:${hosts.target.port} (exit code 4): ` +
        `echo "login [secret] [secret]" >&2; exit 4\nlogin [secret] [secret]`,
    );
  });

  test("a timed out command is named with its secrets masked", async () => {
    const err = await exec(hosts.spec(), `sleep 2 # ${PASSWORD}`, { timeoutMs: 100 }).catch((e) => e);
    expect(err).toBeInstanceOf(CommandTimeoutError);
    expect(err.message).toBe(
      `command timed out after 0.1s on tester@127.0.0.1:${hosts.target.port}: sleep 2 # [secret]`,
    );
  });
});
