// Connection liveness against in-process ssh2 servers: dead paths, jump host lifetimes, idle
// closing, channel-open and command timeouts. Timers are shrunk so each case takes well under a second or two.
import { mkdtempSync, readFileSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { ConnectionSpec, connectionKey } from "../../../provider/remote/connection";
import { CommandTimeoutError, ConnectionLostError } from "../../../provider/remote/errors";
import { exec } from "../../../provider/remote/exec";
import { withHostLock } from "../../../provider/remote/lock";
import { closeAll, pooledConnections } from "../../../provider/remote/pool";
import { RemoteSettings, configureRemote, remoteSettings } from "../../../provider/remote/settings";
import { FakeServer, PASSWORD, Relay, startFakeServer, startRelay } from "./fake-ssh-server";

let target: FakeServer;
let jump: FakeServer;
let relay: Relay;
let dir: string;
let defaults: RemoteSettings;

const KEEPALIVE_MS = 100;
const KEEPALIVE_COUNT = 2;
const IDLE_MS = 300;

const direct = (over: Partial<ConnectionSpec> = {}): ConnectionSpec => ({
  host: "127.0.0.1",
  port: target.port,
  user: "tester",
  password: PASSWORD,
  hostKey: target.fingerprint,
  dialErrorLimit: 2,
  perDialTimeout: 5,
  ...over,
});
const viaJump = (): ConnectionSpec =>
  direct({ proxy: { host: "127.0.0.1", port: jump.port, user: "hop", password: PASSWORD, hostKey: jump.fingerprint } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (cond: () => boolean, ms = 2000) => {
  const deadline = Date.now() + ms;
  while (!cond() && Date.now() < deadline) await sleep(10);
  return cond();
};

beforeAll(async () => {
  defaults = { ...remoteSettings() };
  configureRemote({
    backoffInitialMs: 20,
    backoffMaxMs: 100,
    keepaliveIntervalMs: KEEPALIVE_MS,
    keepaliveCountMax: KEEPALIVE_COUNT,
    idleTimeoutMs: IDLE_MS,
    keepShellMs: IDLE_MS,
    channelOpenTimeoutMs: 500,
  });
  [target, jump] = await Promise.all([startFakeServer(), startFakeServer()]);
  relay = await startRelay(target.port);
  dir = mkdtempSync(join(tmpdir(), "lvs-liveness-"));
});

afterEach(async () => {
  closeAll();
  await until(() => target.open === 0 && jump.open === 0);
  target.connections = jump.connections = jump.forwards = 0;
  target.stallSessions = target.stallExecs = 0;
  target.commands.length = 0;
});

afterAll(async () => {
  configureRemote(defaults);
  await Promise.all([target.close(), jump.close(), relay.close()]);
  rmSync(dir, { recursive: true, force: true });
});

// Detection takes about interval * (countMax + 1); allow generous slack for a loaded machine.
const KEEPALIVE_WINDOW_MS = KEEPALIVE_MS * (KEEPALIVE_COUNT + 1) + 1500;

test("a silently dead path fails the in-flight command within the keepalive window, and the next one re-dials", async () => {
  const spec = direct({ port: relay.port });
  await exec(spec, "true");
  const inflight = exec(spec, "sleep 3").catch((e) => e);
  expect(await until(() => target.commands.includes("sh -c 'sleep 3'"))).toBe(true); // the command runs
  const cut = Date.now();
  relay.freeze();
  const err = await inflight;
  expect(Date.now() - cut).toBeLessThan(KEEPALIVE_WINDOW_MS);
  expect(err).toBeInstanceOf(ConnectionLostError);
  expect(err.message).toBe(`SSH connection to ${connectionKey(spec)} lost: Keepalive timeout`);
  expect(pooledConnections()).toEqual([]);

  expect((await exec(spec, "echo back")).stdout).toBe("back\n");
  expect(target.connections).toBe(2);
});

test("a dead path behind a live jump host fails the in-flight command and closes the jump connection too", async () => {
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
  const marker = join(dir, "ran-once");
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

test("an idle connection is closed together with its jump connection, and the next exec re-dials", async () => {
  await exec(viaJump(), "true");
  expect(target.open).toBe(1);
  expect(jump.open).toBe(1);
  await sleep(IDLE_MS + 100);
  expect(pooledConnections()).toEqual([]);
  expect(await until(() => target.open === 0 && jump.open === 0)).toBe(true);

  expect((await exec(viaJump(), "echo back")).stdout).toBe("back\n");
  expect(jump.connections).toBe(2);
  expect(target.connections).toBe(2);
});

test("the idle timer leaves a connection alone while a lock channel is held on it", async () => {
  const path = join(dir, "lock");
  await withHostLock(
    viaJump(),
    async () => {
      await sleep(IDLE_MS * 3);
      expect(pooledConnections()).toEqual([connectionKey(viaJump())]);
      expect((await exec(viaJump(), "echo inside")).stdout).toBe("inside\n");
      await sleep(IDLE_MS * 2);
      expect(pooledConnections()).toEqual([connectionKey(viaJump())]);
    },
    { path },
  );
  expect(target.connections).toBe(1);
  expect(jump.connections).toBe(1);
  // Released: once its shell is no longer kept for the next hold, it idles out like any other.
  expect(await until(() => target.open === 0 && jump.open === 0)).toBe(true);
});

test("a channel that cannot be opened in time is retried once on a fresh connection", async () => {
  await exec(direct(), "true");
  target.stallSessions = 1;
  expect((await exec(direct(), "echo second")).stdout).toBe("second\n");
  expect(target.connections).toBe(2);
  expect(await until(() => target.open === 1)).toBe(true); // the wedged connection was closed

  target.stallSessions = 2; // the retry stalls too: give up with a clear error
  const err = await exec(direct(), "true").catch((e) => e);
  expect(err.message).toMatch(
    /^cannot open SSH channel: timed out after 500ms opening a channel on tester@127\.0\.0\.1:\d+$/,
  );
});

test("an exec request left unanswered is not retried: the command may have started", async () => {
  await exec(direct(), "true");
  target.stallExecs = 1;
  const err = await exec(direct(), "true").catch((e) => e);
  expect(err.message).toMatch(
    /^cannot open SSH channel: timed out after 500ms waiting for the command to start \(it may have started\) on tester@127\.0\.0\.1:\d+$/,
  );
  expect(target.connections).toBe(1);
  expect(pooledConnections()).toEqual([]); // the wedged connection is out of the pool
  expect((await exec(direct(), "echo ok")).stdout).toBe("ok\n");
  expect(target.connections).toBe(2);
});

test("a command running past its timeout is killed and reported; the connection stays usable", async () => {
  const started = Date.now();
  const err = await exec(direct(), "sleep 5", { timeoutMs: 200 }).catch((e) => e);
  expect(Date.now() - started).toBeLessThan(2000);
  expect(err).toBeInstanceOf(CommandTimeoutError);
  expect(err.message).toBe(`command timed out after 0.2s on ${connectionKey(direct())}: sleep 5`);
  expect((await exec(direct(), "echo ok")).stdout).toBe("ok\n");
  expect(target.connections).toBe(1);
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
