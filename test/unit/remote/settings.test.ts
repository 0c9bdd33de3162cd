// Process-wide tunables (settings.ts): the defaults real hosts get, and how configureRemote changes them.
import { RemoteSettings, configureRemote, remoteSettings } from "../../../provider/remote/settings";

// Each value is deliberate (see settings.ts): a change here should be one on purpose.
const DEFAULTS: RemoteSettings = {
  backoffInitialMs: 500,
  backoffMaxMs: 8000,
  idleTimeoutMs: 10_000,
  keepShellMs: 3000, // the README: a host's shell is "closed 3 s after the last" lock hold
  maxChannelsPerConnection: 6,
  keepaliveIntervalMs: 5000,
  keepaliveCountMax: 3,
  channelOpenTimeoutMs: 30_000,
  commandTimeoutMs: 30 * 60_000,
};

test("defaults suit real hosts", () => {
  expect(remoteSettings()).toEqual(DEFAULTS);
  // Below OpenSSH's MaxSessions (10) with room for the lock shell, which does not count against the cap.
  expect(remoteSettings().maxChannelsPerConnection + 1).toBeLessThanOrEqual(10);
});

test("configureRemote changes only what it is given, and every later read sees it", () => {
  const seen = remoteSettings();
  configureRemote({ idleTimeoutMs: 50, keepaliveIntervalMs: 0 });
  expect(remoteSettings()).toEqual({ ...DEFAULTS, idleTimeoutMs: 50, keepaliveIntervalMs: 0 });
  expect(seen.idleTimeoutMs).toBe(50); // readers hold the live settings, not a copy taken earlier
  configureRemote({ idleTimeoutMs: 70 });
  configureRemote({});
  expect(remoteSettings()).toEqual({ ...DEFAULTS, idleTimeoutMs: 70, keepaliveIntervalMs: 0 });
  configureRemote(DEFAULTS);
  expect(remoteSettings()).toEqual(DEFAULTS);
});
