// Process-wide tunables (module-level so they survive Pulumi's function serialization).
// Defaults suit real hosts; tests shrink them.
export interface RemoteSettings {
  /** First delay between dial attempts; doubles each time. */
  backoffInitialMs: number;
  backoffMaxMs: number;
  /** Close a pooled connection (and its jump hosts) after this long without operations or open channels. */
  idleTimeoutMs: number;
  /** Keep a host's lock shell (lock.ts) open this long after a lock hold, for the next one. */
  keepShellMs: number;
  /** Concurrent exec channels per connection; OpenSSH's MaxSessions defaults to 10. */
  maxChannelsPerConnection: number;
  /**
   * SSH keepalive on every connection (jump hosts too): a connection whose peer misses
   * `keepaliveCountMax` pings in a row is declared dead after about interval * (countMax + 1).
   * 0 disables keepalives.
   */
  keepaliveIntervalMs: number;
  keepaliveCountMax: number;
  /** Give up opening an exec channel after this long; the command never started, so it is retried once. 0: no limit. */
  channelOpenTimeoutMs: number;
  /** Upper bound for one remote command, from channel open to exit. 0: no limit. */
  commandTimeoutMs: number;
}

const settings: RemoteSettings = {
  backoffInitialMs: 500,
  backoffMaxMs: 8000,
  idleTimeoutMs: 10_000,
  keepShellMs: 3000,
  maxChannelsPerConnection: 6,
  keepaliveIntervalMs: 5000,
  keepaliveCountMax: 3,
  channelOpenTimeoutMs: 30_000,
  commandTimeoutMs: 30 * 60_000,
};

export function configureRemote(overrides: Partial<RemoteSettings>): void {
  Object.assign(settings, overrides);
}

export function remoteSettings(): Readonly<RemoteSettings> {
  return settings;
}
