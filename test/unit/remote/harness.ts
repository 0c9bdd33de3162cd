// Set-ups shared by the remote layer's tests: in-process ssh2 servers (a target and a jump host) or a real OpenSSH
// sshd, started once per test file, and the waits those tests need. Each test file gets its own module registry, so
// the settings one file configures never reach another.
import { spawnSync } from "child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { ConnectionSpec } from "../../../provider/remote/connection";
import { closeKeptShells } from "../../../provider/remote/lock";
import { setLogger } from "../../../provider/remote/log";
import { closeAll } from "../../../provider/remote/pool";
import { RemoteSettings, configureRemote, remoteSettings } from "../../../provider/remote/settings";
import { FakeServer, PASSWORD, startFakeServer } from "./fake-ssh-server";
import { OpenSshServer, SSHD, startOpenSsh } from "./openssh-server";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `cond` holds or `ms` have passed; returns whether it holds. */
export async function until(cond: () => boolean, ms = 2000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!cond() && Date.now() < deadline) await sleep(10);
  return cond();
}

/** Whether nobody holds the flock on `path` (on this machine, which is the "host" of every test server). */
export const lockFree = (path: string) => spawnSync("flock", ["-n", path, "true"]).status === 0;

/** Applies `overrides` for the tests of the enclosing describe (or file), and puts the earlier settings back after. */
export function useSettings(overrides: Partial<RemoteSettings>): void {
  let saved: RemoteSettings;
  beforeAll(() => {
    saved = { ...remoteSettings() };
    configureRemote(overrides);
  });
  afterAll(() => configureRemote(saved));
}

export interface FakeHosts {
  target: FakeServer;
  jump: FakeServer;
  /** A temp dir for lock files and markers; removed after the file's tests. */
  dir: string;
  /** The target as user "tester": password login, pinned host key, 2 dial attempts of at most 5 s. */
  spec(over?: Partial<ConnectionSpec>): ConnectionSpec;
  /** The jump host as user "hop", for a spec's `proxy`. */
  proxy(over?: Partial<ConnectionSpec>): ConnectionSpec;
}

/**
 * Starts the fake target and jump host before the file's tests, with `settings` applied. After every test the pool,
 * the kept lock shells and the logger are reset and the servers' counters zeroed.
 */
export function useFakeHosts(settings: Partial<RemoteSettings> = {}): FakeHosts {
  useSettings(settings);
  const hosts = {
    spec: (over: Partial<ConnectionSpec> = {}): ConnectionSpec => ({
      host: "127.0.0.1",
      port: hosts.target.port,
      user: "tester",
      password: PASSWORD,
      hostKey: hosts.target.fingerprint,
      dialErrorLimit: 2,
      perDialTimeout: 5,
      ...over,
    }),
    proxy: (over: Partial<ConnectionSpec> = {}): ConnectionSpec => ({
      host: "127.0.0.1",
      port: hosts.jump.port,
      user: "hop",
      password: PASSWORD,
      hostKey: hosts.jump.fingerprint,
      ...over,
    }),
  } as FakeHosts;

  beforeAll(async () => {
    // One after the other: a failed start must not leave the other server listening (jest would never exit).
    hosts.target = await startFakeServer();
    hosts.jump = await startFakeServer();
    hosts.dir = mkdtempSync(join(tmpdir(), "lvs-remote-"));
    // This machine has no sudo: a stand-in that runs the command, so sudo connections work against the fake server.
    writeFileSync(join(hosts.dir, "sudo"), '#!/bin/sh\n[ "$1" = -n ] && shift\nexec "$@"\n');
    chmodSync(join(hosts.dir, "sudo"), 0o755);
    hosts.target.env = { ...process.env, PATH: `${hosts.dir}:${process.env.PATH}` };
  });

  afterEach(async () => {
    closeKeptShells();
    closeAll();
    setLogger();
    const { target, jump } = hosts;
    await until(() => target.open === 0 && jump.open === 0);
    for (const server of [target, jump]) {
      server.connections = server.authAttempts = server.forwards = 0;
      server.stallSessions = server.stallExecs = 0;
      server.commands.length = 0;
    }
  });

  afterAll(async () => {
    closeAll();
    await Promise.all([hosts.target?.close(), hosts.jump?.close()]);
    if (hosts.dir) rmSync(hosts.dir, { recursive: true, force: true });
  });
  return hosts;
}

/** `describe` where /usr/sbin/sshd exists (scripts/setup.sh installs it), else skipped. */
export const describeSshd = existsSync(SSHD) ? describe : describe.skip;

export interface RealSshd {
  sshd: OpenSshServer;
  /** Root on the sshd's first port with its client key and pinned host key, 2 dial attempts of at most 10 s. */
  conn(over?: Partial<ConnectionSpec>): ConnectionSpec;
}

/** Starts a real sshd before the tests of the enclosing describe (use inside describeSshd); stops it, by PID, after. */
export function useOpenSsh(): RealSshd {
  // Each session start runs the login shell's rc files (root's ~/.bashrc here), which can take a second.
  jest.setTimeout(60_000);
  const real = {
    conn: (over: Partial<ConnectionSpec> = {}): ConnectionSpec => ({
      host: "127.0.0.1",
      port: real.sshd.ports[0],
      user: "root",
      privateKey: real.sshd.privateKey,
      hostKey: real.sshd.fingerprint,
      dialErrorLimit: 2,
      perDialTimeout: 10,
      ...over,
    }),
  } as RealSshd;

  beforeAll(async () => {
    real.sshd = await startOpenSsh();
  });

  afterAll(async () => {
    closeKeptShells();
    closeAll();
    await real.sshd?.stop();
  });
  return real;
}
