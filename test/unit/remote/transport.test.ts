// Transport edge cases against in-process ssh2 servers: host keys, auth, retries, pooling, jump hosts.
import { spawnSync } from "child_process";
import { createHmac, randomBytes } from "crypto";
import * as net from "net";
import { mkdtempSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { ConnectionSpec } from "../../../provider/remote/connection";
import {
  AuthenticationError,
  CommandTimeoutError,
  HostKeyVerificationError,
  HostUnreachableError,
  RemoteCommandError,
} from "../../../provider/remote/errors";
import { exec, run } from "../../../provider/remote/exec";
import { withHostLock } from "../../../provider/remote/lock";
import { setLogger } from "../../../provider/remote/log";
import { closeAll, pooledConnections } from "../../../provider/remote/pool";
import { configureRemote } from "../../../provider/remote/settings";
import { FakeServer, PASSWORD, newHostKey, startFakeServer } from "./fake-ssh-server";

let target: FakeServer;
let jump: FakeServer;
let dir: string;

const spec = (over: Partial<ConnectionSpec> = {}): ConnectionSpec => ({
  host: "127.0.0.1",
  port: target.port,
  user: "tester",
  password: PASSWORD,
  hostKey: target.fingerprint,
  dialErrorLimit: 3,
  perDialTimeout: 5,
  ...over,
});

beforeAll(async () => {
  configureRemote({ backoffInitialMs: 20, backoffMaxMs: 200 });
  target = await startFakeServer();
  jump = await startFakeServer();
  dir = mkdtempSync(join(tmpdir(), "lvs-remote-"));
});

afterEach(() => {
  closeAll();
  setLogger();
  target.connections = jump.connections = target.authAttempts = jump.forwards = 0;
});

afterAll(async () => {
  closeAll();
  await Promise.all([target.close(), jump.close()]);
  rmSync(dir, { recursive: true, force: true });
});

test("runs a command with a pinned host key", async () => {
  const r = await run(spec(), "echo out; echo err >&2; exit 3");
  expect(r).toEqual({ stdout: "out\n", stderr: "err\n", code: 3 });
  expect((await run(spec(), "cat", { stdin: "fed via stdin" })).stdout).toBe("fed via stdin");
});

test("wrong pinned host key is refused, naming both fingerprints, without retry", async () => {
  const wrong = `SHA256:${randomBytes(32).toString("base64").replace(/=+$/, "")}`;
  const err = await run(spec({ hostKey: wrong, dialErrorLimit: 5 }), "true").catch((e) => e);
  expect(err).toBeInstanceOf(HostKeyVerificationError);
  expect(err.message).toContain(`127.0.0.1:${target.port}`);
  expect(err.message).toContain(`expected ${wrong}`);
  expect(err.message).toContain(`presented ${target.fingerprint}`);
  expect(target.connections).toBe(1);
});

test("refuses to connect when there is nothing to verify the host key against", async () => {
  const err = await run(spec({ hostKey: undefined }), "true").catch((e) => e);
  expect(err).toBeInstanceOf(HostKeyVerificationError);
  expect(err.message).toMatch(/no hostKey or knownHostsPath/);
  expect(target.connections).toBe(0);
});

test("insecureSkipHostKeyCheck connects and warns once", async () => {
  const warnings: string[] = [];
  setLogger({ debug: () => {}, info: () => {}, warn: (m) => warnings.push(m) });
  const insecure = spec({ hostKey: undefined, insecureSkipHostKeyCheck: true });
  await exec(insecure, "true");
  closeAll();
  await exec(insecure, "true");
  expect(warnings.filter((w) => w.includes("host key verification disabled"))).toHaveLength(1);
});

describe("known_hosts", () => {
  const name = () => `[127.0.0.1]:${target.port}`;
  const write = (text: string) => {
    const path = join(dir, `known_hosts_${Math.random()}`);
    writeFileSync(path, text);
    return path;
  };

  test("plain entry matches", async () => {
    const path = write(`# comment\nother.example ${newHostKey().line}\n${name()},10.0.0.1 ${target.publicKeyLine} c\n`);
    expect((await exec(spec({ hostKey: undefined, knownHostsPath: path }), "echo ok")).stdout).toBe("ok\n");
  });

  test("hashed entry matches", async () => {
    const salt = randomBytes(20);
    const hash = createHmac("sha1", salt).update(name()).digest("base64");
    const path = write(`|1|${salt.toString("base64")}|${hash} ${target.publicKeyLine}\n`);
    expect((await exec(spec({ hostKey: undefined, knownHostsPath: path }), "echo ok")).stdout).toBe("ok\n");
  });

  test("different key for the host is a mismatch", async () => {
    const other = newHostKey();
    const path = write(`${name()} ${other.line}\n`);
    const err = await run(spec({ hostKey: undefined, knownHostsPath: path }), "true").catch((e) => e);
    expect(err).toBeInstanceOf(HostKeyVerificationError);
    expect(err.message).toContain("mismatch");
    expect(err.message).toContain(target.fingerprint);
    expect(target.connections).toBe(1);
  });

  test("host missing from the file is refused", async () => {
    const path = write(`other.example ${target.publicKeyLine}\n`);
    const err = await run(spec({ hostKey: undefined, knownHostsPath: path }), "true").catch((e) => e);
    expect(err).toBeInstanceOf(HostKeyVerificationError);
    expect(err.message).toMatch(/no entry for 127\.0\.0\.1:\d+/);
  });
});

test("authentication failure is not retried", async () => {
  const err = await run(spec({ password: "wrong", dialErrorLimit: 5 }), "true").catch((e) => e);
  expect(err).toBeInstanceOf(AuthenticationError);
  expect(err.message).toContain(`tester@127.0.0.1:${target.port}`);
  expect(err.message).not.toContain("wrong");
  expect(target.connections).toBe(1);
});

test("unreachable port fails after exactly N attempts with exponential backoff", async () => {
  const attempts: string[] = [];
  setLogger({ debug: (m) => m.includes("dialing") && attempts.push(m), info: () => {}, warn: () => {} });
  const started = Date.now();
  const err = await run(spec({ port: 1, dialErrorLimit: 4 }), "true").catch((e) => e);
  expect(err).toBeInstanceOf(HostUnreachableError);
  expect(err.message).toMatch(/^host 127\.0\.0\.1:1 unreachable after 4 attempts: .*ECONNREFUSED/);
  expect(attempts).toHaveLength(4);
  expect(Date.now() - started).toBeGreaterThanOrEqual(20 + 40 + 80);
});

test("a silent server times out each attempt after perDialTimeout", async () => {
  const sockets: net.Socket[] = [];
  const silent = net.createServer((s) => sockets.push(s));
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  const port = (silent.address() as net.AddressInfo).port;
  try {
    const err = await run(spec({ port, perDialTimeout: 0.2, dialErrorLimit: 2 }), "true").catch((e) => e);
    expect(err.message).toBe(
      `host 127.0.0.1:${port} unreachable after 2 attempts: Timed out while waiting for handshake`,
    );
    expect(sockets).toHaveLength(2);
  } finally {
    sockets.forEach((s) => s.destroy());
    await new Promise((r) => silent.close(r));
  }
});

test("target unreachable behind a reachable jump host is retried and reported", async () => {
  const viaJump = spec({
    port: 1,
    dialErrorLimit: 2,
    proxy: { host: "127.0.0.1", port: jump.port, password: PASSWORD, hostKey: jump.fingerprint },
  });
  const err = await run(viaJump, "true").catch((e) => e);
  expect(err).toBeInstanceOf(HostUnreachableError);
  expect(err.message).toMatch(/^host 127\.0\.0\.1:1 unreachable after 2 attempts: .*Channel open failure/);
  expect(jump.connections).toBe(1);
  expect(jump.forwards).toBe(2);
});

test("operations share one connection, and reconnect after it drops", async () => {
  await exec(spec(), "true");
  await Promise.all([exec(spec(), "sleep 0.1"), exec(spec(), "sleep 0.1"), exec(spec(), "true")]);
  expect(target.connections).toBe(1);
  expect(pooledConnections()).toEqual([`tester@127.0.0.1:${target.port}`]);

  target.dropAll();
  await new Promise((r) => setTimeout(r, 50));
  expect((await exec(spec(), "echo again")).stdout).toBe("again\n");
  expect(target.connections).toBe(2);
});

test("idle connections close after the idle timeout", async () => {
  configureRemote({ idleTimeoutMs: 50 });
  try {
    await exec(spec(), "true");
    await new Promise((r) => setTimeout(r, 150));
    expect(pooledConnections()).toEqual([]);
  } finally {
    configureRemote({ idleTimeoutMs: 10_000 });
  }
});

test("jump host: target reached over forwardOut", async () => {
  const viaJump = spec({
    proxy: { host: "127.0.0.1", port: jump.port, user: "hop", password: PASSWORD, hostKey: jump.fingerprint },
  });
  expect((await exec(viaJump, "echo through")).stdout).toBe("through\n");
  await exec(viaJump, "true");
  expect(jump.connections).toBe(1);
  expect(jump.forwards).toBe(1);
  expect(target.connections).toBe(1);
  expect(pooledConnections()).toEqual([`tester@127.0.0.1:${target.port} via hop@127.0.0.1:${jump.port}`]);
});

test("hosts behind one jump host share one jump connection, closed once the last of them is", async () => {
  const proxy = { host: "127.0.0.1", port: jump.port, user: "hop", password: PASSWORD, hostKey: jump.fingerprint };
  // Two users on the target stand for two hosts behind the bastion: two pooled connections.
  await Promise.all([exec(spec({ user: "a", proxy }), "true"), exec(spec({ user: "b", proxy }), "true")]);
  expect(pooledConnections()).toHaveLength(2);
  expect(target.connections).toBe(2);
  expect(jump.connections).toBe(1);
  expect(jump.forwards).toBe(2);
  closeAll();
  const deadline = Date.now() + 5000;
  while (jump.open > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(jump.open).toBe(0);
  // The next connection through it dials the jump host afresh.
  await exec(spec({ user: "a", proxy }), "true");
  expect(jump.connections).toBe(2);
});

test("nested jump hosts work recursively", async () => {
  const hop = (port: number, fingerprint: string, proxy?: ConnectionSpec): ConnectionSpec => ({
    host: "127.0.0.1",
    port,
    password: PASSWORD,
    hostKey: fingerprint,
    proxy,
  });
  const inner = hop(jump.port, jump.fingerprint);
  // jump -> jump (a second login) -> target
  const chain = spec({ proxy: hop(jump.port, jump.fingerprint, inner) });
  expect((await exec(chain, "echo deep")).stdout).toBe("deep\n");
  expect(jump.connections).toBe(2);
  expect(target.connections).toBe(1);
});

test("wrong host key of the target behind a jump host is refused", async () => {
  const viaJump = spec({
    hostKey: jump.fingerprint,
    proxy: { host: "127.0.0.1", port: jump.port, password: PASSWORD, hostKey: jump.fingerprint },
  });
  const err = await run(viaJump, "true").catch((e) => e);
  expect(err).toBeInstanceOf(HostKeyVerificationError);
  expect(err.message).toContain(`presented ${target.fingerprint}`);
});

test("failed command throws RemoteCommandError with secrets masked", async () => {
  const err = await exec(spec(), `echo ${PASSWORD}; echo token-xyz >&2; exit 7`, { secrets: ["token-xyz"] }).catch(
    (e) => e,
  );
  expect(err).toBeInstanceOf(RemoteCommandError);
  expect(err).toMatchObject({
    code: 7,
    host: `tester@127.0.0.1:${target.port}`,
    stdout: "[secret]\n",
    stderr: "[secret]\n",
  });
  expect(err.command).toBe("echo [secret]; echo [secret] >&2; exit 7");
  expect(JSON.stringify({ ...err, message: err.message })).not.toMatch(new RegExp(`${PASSWORD}|token-xyz`));
});

describe("inside the host lock, commands run in the lock's shell", () => {
  const lockPath = () => join(dir, "lvs-pulumi.lock");
  const free = () => spawnSync("flock", ["-n", lockPath(), "true"]).status === 0;

  test("one exec channel for the whole hold; output, stderr, exit status and stdin exactly as an exec's", async () => {
    target.commands.length = 0;
    const results = await withHostLock(
      spec(),
      async () => [
        await run(spec(), "printf 'no newline'; printf 'err' >&2; exit 3"),
        await run(spec(), "cat", { stdin: "line 1\nline 2\n" }),
        // Output that looks like an end line, and a command that reads stdin: it gets nothing (as /dev/null).
        await run(spec(), "echo 'lvs-pulumi-end-00 0'; cat; printf 'Ü'"),
        // Input a here-document cannot carry exactly (no final newline) takes a channel of its own.
        await run(spec(), "cat", { stdin: "no newline" }),
      ],
      { path: lockPath() },
    );
    expect(results).toEqual([
      { stdout: "no newline", stderr: "err", code: 3 },
      { stdout: "line 1\nline 2\n", stderr: "", code: 0 },
      { stdout: "lvs-pulumi-end-00 0\nÜ", stderr: "", code: 0 },
      { stdout: "no newline", stderr: "", code: 0 },
    ]);
    expect(target.commands).toHaveLength(2);
    // The shell itself: the lock is taken on its stdin.
    expect(target.commands[0]).toBe("sh -c 'exec sh'");
    expect(free()).toBe(true);
  });

  test("the shell stays open for the next hold: two holds, one exec channel, the lock free between them", async () => {
    target.commands.length = 0;
    const held = () =>
      withHostLock(spec(), async () => [free(), (await run(spec(), "echo ok")).stdout], { path: lockPath() });
    expect(await held()).toEqual([false, "ok\n"]);
    expect(free()).toBe(true);
    expect(await held()).toEqual([false, "ok\n"]);
    expect(free()).toBe(true);
    expect(target.commands).toEqual(["sh -c 'exec sh'"]);
  });

  test("a kept shell whose idle time just ran out is not taken by the next hold (its channel is still closing)", async () => {
    configureRemote({ keepShellMs: 0 });
    try {
      target.commands.length = 0;
      const hold = () => withHostLock(spec(), async () => (await run(spec(), "echo ok")).stdout, { path: lockPath() });
      expect(await hold()).toBe("ok\n");
      // The idle timer fires (the shell gets EOF); its channel's close comes a round trip later.
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(await hold()).toBe("ok\n");
      expect(target.commands).toEqual(["sh -c 'exec sh'", "sh -c 'exec sh'"]);
    } finally {
      configureRemote({ keepShellMs: 3000 });
    }
  });

  test("a command past its timeout fails and ends the shell: nothing runs after it; the lock goes when the command ends", async () => {
    const outcome = await withHostLock(
      spec(),
      async () => {
        const error = await run(spec(), "sleep 2", { timeoutMs: 300 }).catch((e: Error) => e);
        expect(error).toBeInstanceOf(CommandTimeoutError);
        await run(spec(), "true");
        return "went on";
      },
      { path: lockPath() },
    ).catch((e: Error) => e);
    expect(String(outcome)).toMatch(/lost the host lock|the host lock's shell was closed after `sleep 2` timed out/);
    // The command may still be changing the host: nothing else takes the lock meanwhile.
    expect(free()).toBe(false);
    const deadline = Date.now() + 5000;
    while (!free() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(free()).toBe(true);
  });
});
