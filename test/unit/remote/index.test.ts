// The remote layer's public surface (index.ts): what the other layers may use, as the very objects of the modules
// behind it, and nothing of the machinery (pool internals, channels, dialing, the lock shell). And its promise to be
// the only code that talks SSH.
import { readFileSync, readdirSync } from "fs";
import { join, relative } from "path";
import * as remote from "../../../provider/remote";
import * as connection from "../../../provider/remote/connection";
import * as errors from "../../../provider/remote/errors";
import * as execModule from "../../../provider/remote/exec";
import * as hostKey from "../../../provider/remote/host-key";
import * as knownHosts from "../../../provider/remote/known-hosts";
import * as lock from "../../../provider/remote/lock";
import * as logModule from "../../../provider/remote/log";
import * as pool from "../../../provider/remote/pool";
import * as secrets from "../../../provider/remote/secrets";
import * as sessionKey from "../../../provider/remote/session-key";
import * as settings from "../../../provider/remote/settings";
import * as wrap from "../../../provider/remote/wrap";
import { KEY_LINE } from "./fixtures";

const provider = join(__dirname, "../../../provider");

test("exports exactly the public names, each the module's own object (one class for instanceof, one pool)", () => {
  const expected: Record<string, unknown> = {
    ...connection,
    ...errors,
    run: execModule.run,
    exec: execModule.exec,
    commandError: execModule.commandError,
    fingerprintOf: hostKey.fingerprintOf,
    keyTypeOf: hostKey.keyTypeOf,
    parseKnownHosts: knownHosts.parseKnownHosts,
    entriesForHost: knownHosts.entriesForHost,
    knownHostsName: knownHosts.knownHostsName,
    DEFAULT_LOCK_PATH: lock.DEFAULT_LOCK_PATH,
    holdsHostLock: lock.holdsHostLock,
    withHostLock: lock.withHostLock,
    log: logModule.log,
    setLogger: logModule.setLogger,
    closeAll: pool.closeAll,
    pooledConnections: pool.pooledConnections,
    sessionKey: sessionKey.sessionKey,
    maskSecrets: secrets.maskSecrets,
    registerSecret: secrets.registerSecret,
    configureRemote: settings.configureRemote,
    wrapCommand: wrap.wrapCommand,
  };
  expect(Object.keys(remote).sort()).toEqual(Object.keys(expected).sort());
  for (const [name, value] of Object.entries(expected)) {
    expect({ name, same: remote[name as keyof typeof remote] === value }).toEqual({ name, same: true });
  }
});

test("the types callers use are exported (this file compiles only if they are)", () => {
  const spec: remote.ConnectionSpec = { host: "lb1", proxy: { host: "bastion" } };
  const options: remote.RunOptions = { stdin: "x\n", secrets: ["s"], timeoutMs: 1 };
  const result: remote.RunResult = { stdout: "", stderr: "", code: null, signal: "SIGKILL" };
  const lockOptions: remote.HostLockOptions = { path: "/run/x.lock", timeoutSeconds: 1 };
  const logger: remote.RemoteLogger = { debug: () => {}, info: () => {}, warn: () => {} };
  const tuning: Partial<remote.RemoteSettings> = { idleTimeoutMs: 1 };
  const entries: remote.KnownHostEntry[] = remote.parseKnownHosts(`lb1 ${KEY_LINE}`);
  expect([spec.host, options.timeoutMs, result.code, lockOptions.timeoutSeconds, typeof logger.warn, tuning]).toEqual([
    "lb1",
    1,
    null,
    1,
    "function",
    { idleTimeoutMs: 1 },
  ]);
  expect(entries.map((e) => [e.hosts, e.keyType])).toEqual([["lb1", "ssh-ed25519"]]);
});

test("only the remote layer imports ssh2", () => {
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
    );
  const importers = sources(provider)
    .filter((file) => /from "ssh2"|require\("ssh2"\)|import\("ssh2"\)/.test(readFileSync(file, "utf8")))
    .map((file) => relative(provider, file));
  expect(importers.length).toBeGreaterThan(0); // the scan finds ssh2's importers at all
  expect(importers.filter((file) => !file.startsWith("remote/"))).toEqual([]);
});
