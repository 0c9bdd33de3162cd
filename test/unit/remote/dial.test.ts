// Dialing (dial.ts): host key and credential failures that are final, bounded retries, jump host chains and their
// sharing, and connections found dead (missed keepalives, a lost jump connection). Against in-process ssh2 servers,
// with timers shrunk; and against a real sshd for key and agent logins.
import { ChildProcess, execFileSync, spawn } from "child_process";
import { randomBytes } from "crypto";
import { appendFileSync, existsSync, readFileSync } from "fs";
import * as net from "net";
import { join } from "path";
import { ConnectionSpec, connectionKey } from "../../../provider/remote/connection";
import {
  AuthenticationError,
  ConnectionLostError,
  HostKeyVerificationError,
  HostUnreachableError,
} from "../../../provider/remote/errors";
import { exec, run } from "../../../provider/remote/exec";
import { setLogger } from "../../../provider/remote/log";
import { closeAll, pooledConnections } from "../../../provider/remote/pool";
import { PASSWORD, startRelay } from "./fake-ssh-server";
import { describeSshd, until, useFakeHosts, useOpenSsh, useSettings } from "./harness";

const KEEPALIVE_MS = 100;
const KEEPALIVE_COUNT = 2;
// Detection takes about interval * (countMax + 1); allow generous slack for a loaded machine.
const KEEPALIVE_WINDOW_MS = KEEPALIVE_MS * (KEEPALIVE_COUNT + 1) + 1500;

const hosts = useFakeHosts({ backoffInitialMs: 20, backoffMaxMs: 200 });
const spec = hosts.spec;
const viaJump = () => spec({ proxy: hosts.proxy() });

test("a private key that is no key is refused at once: no dial, no retry, no socket left to fail unheard", async () => {
  // A port nobody listens on: a socket opened anyway would end in ECONNREFUSED with no listener (a crash).
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = (closed.address() as net.AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const err = await exec(spec({ port, password: undefined, privateKey: "not a key" }), "true").catch((e) => e);
  expect(err).toBeInstanceOf(AuthenticationError);
  expect(err.message).toMatch(/^cannot use the private key for tester@127\.0\.0\.1:\d+: /);
  expect(hosts.target.connections).toBe(0);
  await new Promise((resolve) => setTimeout(resolve, 200)); // an orphaned socket's error would surface here
});

describe("failures that retrying cannot fix fail at once", () => {
  test("wrong pinned host key is refused, naming both fingerprints, without retry", async () => {
    const wrong = `SHA256:${randomBytes(32).toString("base64").replace(/=+$/, "")}`;
    const err = await run(spec({ hostKey: wrong, dialErrorLimit: 5 }), "true").catch((e) => e);
    expect(err).toBeInstanceOf(HostKeyVerificationError);
    expect(err.message).toContain(`127.0.0.1:${hosts.target.port}`);
    expect(err.message).toContain(`expected ${wrong}`);
    expect(err.message).toContain(`presented ${hosts.target.fingerprint}`);
    expect(hosts.target.connections).toBe(1);
  });

  test("refuses to connect when there is nothing to verify the host key against", async () => {
    const err = await run(spec({ hostKey: undefined }), "true").catch((e) => e);
    expect(err).toBeInstanceOf(HostKeyVerificationError);
    expect(err.message).toMatch(/no hostKey or knownHostsPath/);
    expect(hosts.target.connections).toBe(0);
  });

  test("authentication failure is not retried", async () => {
    const err = await run(spec({ password: "wrong", dialErrorLimit: 5 }), "true").catch((e) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err.message).toContain(`tester@127.0.0.1:${hosts.target.port}`);
    expect(err.message).not.toContain("wrong");
    expect(hosts.target.connections).toBe(1);
  });
});

describe("unreachable hosts", () => {
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
    const viaJump = spec({ port: 1, dialErrorLimit: 2, proxy: hosts.proxy({ user: undefined }) });
    const err = await run(viaJump, "true").catch((e) => e);
    expect(err).toBeInstanceOf(HostUnreachableError);
    expect(err.message).toMatch(/^host 127\.0\.0\.1:1 unreachable after 2 attempts: .*Channel open failure/);
    expect(hosts.jump.connections).toBe(1);
    expect(hosts.jump.forwards).toBe(2);
  });
});

describe("jump hosts", () => {
  test("jump host: target reached over forwardOut", async () => {
    const viaJump = spec({ proxy: hosts.proxy() });
    expect((await exec(viaJump, "echo through")).stdout).toBe("through\n");
    await exec(viaJump, "true");
    expect(hosts.jump.connections).toBe(1);
    expect(hosts.jump.forwards).toBe(1);
    expect(hosts.target.connections).toBe(1);
    expect(pooledConnections()).toEqual([`tester@127.0.0.1:${hosts.target.port} via hop@127.0.0.1:${hosts.jump.port}`]);
  });

  test("hosts behind one jump host share one jump connection, closed once the last of them is", async () => {
    const proxy = hosts.proxy();
    // Two users on the target stand for two hosts behind the bastion: two pooled connections.
    await Promise.all([exec(spec({ user: "a", proxy }), "true"), exec(spec({ user: "b", proxy }), "true")]);
    expect(pooledConnections()).toHaveLength(2);
    expect(hosts.target.connections).toBe(2);
    expect(hosts.jump.connections).toBe(1);
    expect(hosts.jump.forwards).toBe(2);
    closeAll();
    const deadline = Date.now() + 5000;
    while (hosts.jump.open > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(hosts.jump.open).toBe(0);
    // The next connection through it dials the jump host afresh.
    await exec(spec({ user: "a", proxy }), "true");
    expect(hosts.jump.connections).toBe(2);
  });

  test("jump hosts are shared only by proxies with the same trust settings", async () => {
    const proxy = hosts.proxy({ hostKey: undefined });
    await exec(spec({ proxy: { ...proxy, insecureSkipHostKeyCheck: true } }), "true");
    await exec(spec({ proxy: { ...proxy, hostKey: hosts.jump.fingerprint } }), "true");
    expect(hosts.jump.connections).toBe(2);
    expect(hosts.target.connections).toBe(2);
  });

  test("nested jump hosts work recursively", async () => {
    const hop = (port: number, fingerprint: string, proxy?: ConnectionSpec): ConnectionSpec => ({
      host: "127.0.0.1",
      port,
      password: PASSWORD,
      hostKey: fingerprint,
      proxy,
    });
    const inner = hop(hosts.jump.port, hosts.jump.fingerprint);
    // jump -> jump (a second login) -> target
    const chain = spec({ proxy: hop(hosts.jump.port, hosts.jump.fingerprint, inner) });
    expect((await exec(chain, "echo deep")).stdout).toBe("deep\n");
    expect(hosts.jump.connections).toBe(2);
    expect(hosts.target.connections).toBe(1);
  });

  test("wrong host key of the target behind a jump host is refused", async () => {
    const viaJump = spec({ hostKey: hosts.jump.fingerprint, proxy: hosts.proxy({ user: undefined }) });
    const err = await run(viaJump, "true").catch((e) => e);
    expect(err).toBeInstanceOf(HostKeyVerificationError);
    expect(err.message).toContain(`presented ${hosts.target.fingerprint}`);
  });
});

describe("connections found dead", () => {
  useSettings({ keepaliveIntervalMs: KEEPALIVE_MS, keepaliveCountMax: KEEPALIVE_COUNT });

  test("a silently dead path fails the in-flight command within the keepalive window, and the next one re-dials", async () => {
    const relay = await startRelay(hosts.target.port);
    try {
      const direct = spec({ port: relay.port });
      await exec(direct, "true");
      const inflight = exec(direct, "sleep 3").catch((e) => e);
      expect(await until(() => hosts.target.commands.includes("sh -c 'sleep 3'"))).toBe(true); // the command runs
      const cut = Date.now();
      relay.freeze();
      const err = await inflight;
      expect(Date.now() - cut).toBeLessThan(KEEPALIVE_WINDOW_MS);
      expect(err).toBeInstanceOf(ConnectionLostError);
      expect(err.message).toBe(`SSH connection to ${connectionKey(direct)} lost: Keepalive timeout`);
      expect(pooledConnections()).toEqual([]);

      expect((await exec(direct, "echo back")).stdout).toBe("back\n");
      expect(hosts.target.connections).toBe(2);
    } finally {
      closeAll();
      await relay.close();
    }
  });

  test("a dead path behind a live jump host fails the in-flight command and closes the jump connection too", async () => {
    const { target, jump } = hosts;
    await exec(viaJump(), "true");
    const inflight = exec(viaJump(), "sleep 3").catch((e) => e);
    expect(await until(() => target.commands.includes("sh -c 'sleep 3'"))).toBe(true); // the command runs
    const cut = Date.now();
    jump.freezeForwards();
    const err = await inflight;
    expect(Date.now() - cut).toBeLessThan(KEEPALIVE_WINDOW_MS);
    expect(err).toBeInstanceOf(ConnectionLostError);
    expect(err.message).toContain(`SSH connection to ${connectionKey(viaJump())} lost`);
    expect(await until(() => jump.open === 0)).toBe(true); // the jump connection went with it

    expect((await exec(viaJump(), "echo back")).stdout).toBe("back\n");
    expect(jump.connections).toBe(2);
    expect(jump.forwards).toBe(2);
  });

  test("losing the jump connection fails the running command (not retried) and the next exec re-dials", async () => {
    const { target, jump } = hosts;
    const marker = join(hosts.dir, "ran-once");
    await exec(viaJump(), "true");
    const inflight = exec(viaJump(), `echo x >> '${marker}'; sleep 2`).catch((e) => e);
    expect(await until(() => readFileSafe(marker) !== "")).toBe(true);
    jump.dropAll();
    const err = await inflight;
    expect(err).toBeInstanceOf(ConnectionLostError);
    expect(err.message).toMatch(
      new RegExp(`^SSH connection to ${escape(connectionKey(viaJump()))} lost: jump host hop@127\\.0\\.0\\.1:\\d+: `),
    );
    expect(pooledConnections()).toEqual([]);
    expect(await until(() => target.open === 0)).toBe(true); // the target connection went with it

    expect((await exec(viaJump(), "echo back")).stdout).toBe("back\n");
    expect(jump.connections).toBe(2);
    expect(readFileSafe(marker)).toBe("x\n"); // the started command was not run again
  });
});

describeSshd("real OpenSSH sshd: key and agent logins", () => {
  const real = useOpenSsh();
  let agent: ChildProcess | undefined;
  let agentSocket: string;
  let keyFile: string;

  // A second client key, encrypted, authorized beside the harness's own.
  beforeAll(() => {
    keyFile = join(real.sshd.dir, "encrypted_key");
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "key-pass-7", "-f", keyFile]);
    appendFileSync(join(real.sshd.dir, "authorized_keys"), readFileSync(`${keyFile}.pub`));
  });

  afterAll(async () => {
    if (agent?.pid && agent.exitCode === null) {
      const exited = new Promise((resolve) => agent!.once("exit", resolve));
      process.kill(agent.pid, "SIGTERM");
      await exited;
    }
  });

  test("an encrypted private key logs in with its privateKeyPassword", async () => {
    const privateKey = readFileSync(keyFile, "utf8");
    expect((await exec(real.conn({ privateKey, privateKeyPassword: "key-pass-7" }), "echo in")).stdout).toBe("in\n");
  });

  test("an encrypted key without its passphrase, or with a wrong one, is refused as such, the passphrase unsaid", async () => {
    const privateKey = readFileSync(keyFile, "utf8");
    for (const privateKeyPassword of [undefined, "wrong-pass"]) {
      const err = await exec(real.conn({ privateKey, privateKeyPassword }), "true").catch((e) => e);
      expect(err).toBeInstanceOf(AuthenticationError);
      expect(err.message).toMatch(/^cannot use the private key for root@127\.0\.0\.1:\d+: /);
      expect(err.message).not.toContain("wrong-pass");
    }
  });

  test("an agent is used when named, and by default only without password or key", async () => {
    agentSocket = join(real.sshd.dir, "agent.sock");
    agent = spawn("ssh-agent", ["-D", "-a", agentSocket], { stdio: "ignore" });
    expect(await until(() => existsSync(agentSocket), 5000)).toBe(true);
    execFileSync("ssh-add", ["-q", join(real.sshd.dir, "client_key")], {
      env: { ...process.env, SSH_AUTH_SOCK: agentSocket },
      stdio: "ignore",
    });
    const viaAgent = real.conn({ privateKey: undefined, agentSocketPath: agentSocket });
    expect((await exec(viaAgent, "echo agent")).stdout).toBe("agent\n");
    closeAll();

    const saved = process.env.SSH_AUTH_SOCK;
    process.env.SSH_AUTH_SOCK = agentSocket;
    try {
      expect((await exec(real.conn({ privateKey: undefined }), "echo default")).stdout).toBe("default\n");
      closeAll();
      // An explicit credential is all that is offered (this sshd takes keys only: the password fails).
      const err = await run(real.conn({ privateKey: undefined, password: "not-a-key" }), "true").catch((e) => e);
      expect(err).toBeInstanceOf(AuthenticationError);
    } finally {
      if (saved === undefined) delete process.env.SSH_AUTH_SOCK;
      else process.env.SSH_AUTH_SOCK = saved;
    }
  });
});

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
