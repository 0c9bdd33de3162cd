// Process-wide tunables (module-level so they survive Pulumi's function serialization).
// Defaults suit real hosts; tests shrink them.
export interface RemoteSettings {
  /** First delay between dial attempts; doubles each time. */
  backoffInitialMs: number;
  backoffMaxMs: number;
  /** Close a pooled connection after this long without operations. */
  idleTimeoutMs: number;
  /** Concurrent exec channels per connection; OpenSSH's MaxSessions defaults to 10. */
  maxChannelsPerConnection: number;
}

const settings: RemoteSettings = {
  backoffInitialMs: 500,
  backoffMaxMs: 8000,
  idleTimeoutMs: 10_000,
  maxChannelsPerConnection: 6,
};

export function configureRemote(overrides: Partial<RemoteSettings>): void {
  Object.assign(settings, overrides);
}

export function remoteSettings(): Readonly<RemoteSettings> {
  return settings;
}
