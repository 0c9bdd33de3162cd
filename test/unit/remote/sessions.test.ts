// Specs for one user@host:port that differ in what decides trust or identity get SSH sessions and lock shells of
// their own: whichever dialed first must not decide the host key check, the credentials or sudo of the others.
import { spawnSync } from "child_process";
import { randomBytes } from "crypto";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { ConnectionSpec } from "../../../provider/remote/connection";
import { HostKeyVerificationError } from "../../../provider/remote/errors";
import { exec, run } from "../../../provider/remote/exec";
import { closeKeptShells, holdsHostLock, withHostLock } from "../../../provider/remote/lock";
import { closeAll } from "../../../provider/remote/pool";
import { FakeServer, PASSWORD, startFakeServer } from "./fake-ssh-server";

let target: FakeServer;
let jump: FakeServer;
let dir: string;

const pinned = (over: Partial<ConnectionSpec> = {}): ConnectionSpec => ({
  host: "127.0.0.1",
  port: target.port,
  user: "tester",
  password: PASSWORD,
  hostKey: target.fingerprint,
  ...over,
});
const unverified = (over: Partial<ConnectionSpec> = {}) =>
  pinned({ hostKey: undefined, insecureSkipHostKeyCheck: true, ...over });
const lockPath = () => join(dir, "lvs-pulumi.lock");
const lockFree = () => spawnSync("flock", ["-n", lockPath(), "true"]).status === 0;

beforeAll(async () => {
  target = await startFakeServer();
  jump = await startFakeServer();
  dir = mkdtempSync(join(tmpdir(), "lvs-sessions-"));
  // This machine has no sudo: a stand-in that runs the command, so sudo connections work against the fake server.
  writeFileSync(join(dir, "sudo"), '#!/bin/sh\n[ "$1" = -n ] && shift\nexec "$@"\n');
  chmodSync(join(dir, "sudo"), 0o755);
  target.env = { ...process.env, PATH: `${dir}:${process.env.PATH}` };
});

afterEach(() => {
  closeKeptShells();
  closeAll();
  target.connections = jump.connections = 0;
  target.commands.length = 0;
});

afterAll(async () => {
  await Promise.all([target.close(), jump.close()]);
  rmSync(dir, { recursive: true, force: true });
});

test("a connection that skips the host key check does not carry one that pins it", async () => {
  await exec(unverified(), "true");
  const wrong = `SHA256:${randomBytes(32).toString("base64").replace(/=+$/, "")}`;
  const err = await run(pinned({ hostKey: wrong, dialErrorLimit: 1 }), "true").catch((e: unknown) => e);
  expect(err).toBeInstanceOf(HostKeyVerificationError);
  await exec(pinned(), "true");
  expect(target.connections).toBe(3);
});

test("sudo and plain connections to one user@host:port get separate sessions and lock shells", async () => {
  await exec(pinned({ sudo: true }), "true");
  await exec(pinned(), "true");
  expect(target.connections).toBe(2);
  await withHostLock(pinned({ sudo: true }), () => exec(pinned({ sudo: true }), "true"), { path: lockPath() });
  await withHostLock(pinned(), () => exec(pinned(), "true"), { path: lockPath() });
  expect(target.commands.filter((c) => c.endsWith("sh -c 'exec sh'"))).toEqual([
    "sudo -n sh -c 'exec sh'",
    "sh -c 'exec sh'",
  ]);
});

test("jump hosts are shared only by proxies with the same trust settings", async () => {
  const proxy = { host: "127.0.0.1", port: jump.port, user: "hop", password: PASSWORD };
  await exec(pinned({ proxy: { ...proxy, insecureSkipHostKeyCheck: true } }), "true");
  await exec(pinned({ proxy: { ...proxy, hostKey: jump.fingerprint } }), "true");
  expect(jump.connections).toBe(2);
  expect(target.connections).toBe(2);
});

test("a nested hold with other trust settings keeps the host locked and runs over its own session", async () => {
  const inner = unverified({ sudo: true });
  const seen = await withHostLock(
    pinned(),
    () =>
      withHostLock(inner, async () => [holdsHostLock(inner), lockFree(), (await exec(inner, "echo inner")).stdout], {
        path: lockPath(),
        timeoutSeconds: 2,
      }),
    { path: lockPath() },
  );
  expect(seen).toEqual([true, false, "inner\n"]);
  expect(lockFree()).toBe(true);
  expect(target.connections).toBe(2);
  // The outer hold's shell, then the inner command as an exec of its own (with its sudo), not in that shell.
  expect(target.commands).toEqual(["sh -c 'exec sh'", "sudo -n sh -c 'echo inner'"]);
});
