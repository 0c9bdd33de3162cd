// The remote layer: the only code that talks SSH (and the only importer of ssh2).
export * from "./connection";
export {
  RemoteCommandError,
  HostKeyVerificationError,
  AuthenticationError,
  HostUnreachableError,
  ConnectionLostError,
  CommandTimeoutError,
} from "./errors";
export type { RunOptions, RunResult } from "./exec";
export { run, exec, commandError } from "./exec";
export { fingerprintOf, keyTypeOf } from "./host-key";
export type { KnownHostEntry } from "./known-hosts";
export { parseKnownHosts, entriesForHost, knownHostsName } from "./known-hosts";
export type { HostLockOptions } from "./lock";
export { DEFAULT_LOCK_PATH, holdsHostLock, withHostLock } from "./lock";
export type { RemoteLogger } from "./log";
export { log, setLogger } from "./log";
export { closeAll, pooledConnections } from "./pool";
export { sessionKey } from "./session-key";
export { maskSecrets, registerSecret } from "./secrets";
export type { RemoteSettings } from "./settings";
export { configureRemote } from "./settings";
export { wrapCommand } from "./wrap";
