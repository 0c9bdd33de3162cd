// Host key verification: on by default; a pinned fingerprint, a known_hosts file, or an explicit opt-out.
import { createHash } from "crypto";
import { readFileSync } from "fs";
import { ConnectionSpec, endpointOf, portOf } from "./connection";
import { HostKeyVerificationError } from "./errors";
import { entriesForHost, parseKnownHosts } from "./known-hosts";
import { log } from "./log";

/** "SHA256:<base64 without padding>" of a raw SSH public key blob, as `ssh-keygen -lf` prints. */
export function fingerprintOf(keyBlob: Buffer): string {
  return `SHA256:${createHash("sha256").update(keyBlob).digest("base64").replace(/=+$/, "")}`;
}

/** Key algorithm name embedded at the start of an SSH public key blob (uint32 length + name). */
export function keyTypeOf(keyBlob: Buffer): string {
  if (keyBlob.length < 4) return "";
  const len = keyBlob.readUInt32BE(0);
  return keyBlob.subarray(4, 4 + len).toString("latin1");
}

/** Decide whether a presented host key is acceptable; throws HostKeyVerificationError if not. */
export type HostKeyCheck = (keyBlob: Buffer) => void;

// Warn once per host per process; module-level so it is shared across operations.
const warnedInsecure = new Set<string>();

/**
 * Build the check for `spec` (its own host only; jump hosts carry their own settings).
 * Fails up front when nothing is configured: silently trusting any key is never the default.
 */
export function hostKeyCheckFor(spec: ConnectionSpec): HostKeyCheck {
  const endpoint = endpointOf(spec);
  if (spec.hostKey) {
    const expected = spec.hostKey.trim().replace(/=+$/, "");
    return (key) => {
      const presented = fingerprintOf(key);
      if (presented !== expected) throw mismatch(endpoint, expected, presented);
    };
  }
  if (spec.knownHostsPath) {
    const path = spec.knownHostsPath;
    return (key) => checkKnownHosts(path, spec.host, portOf(spec), endpoint, key);
  }
  if (spec.insecureSkipHostKeyCheck) {
    if (!warnedInsecure.has(endpoint)) {
      warnedInsecure.add(endpoint);
      log().warn(`WARNING: host key verification disabled for ${endpoint} (insecureSkipHostKeyCheck)`);
    }
    return () => {};
  }
  throw new HostKeyVerificationError(
    `refusing to connect to ${endpoint}: no hostKey or knownHostsPath given ` +
      `(set hostKey to the output of \`ssh-keygen -lf\`, or insecureSkipHostKeyCheck: true to opt out)`,
  );
}

function checkKnownHosts(path: string, host: string, port: number, endpoint: string, key: Buffer): void {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new HostKeyVerificationError(`cannot read known_hosts ${path} for ${endpoint}: ${(err as Error).message}`);
  }
  const presented = fingerprintOf(key);
  const type = keyTypeOf(key);
  const entries = entriesForHost(parseKnownHosts(text), host, port);
  const same = (e: { keyType: string; key: Buffer }) => e.keyType === type && e.key.equals(key);
  if (entries.some((e) => e.revoked && same(e))) {
    throw new HostKeyVerificationError(`host key ${presented} of ${endpoint} is marked @revoked in ${path}`);
  }
  const trusted = entries.filter((e) => !e.revoked);
  if (trusted.some(same)) return;
  if (trusted.length === 0) {
    throw new HostKeyVerificationError(`no entry for ${endpoint} in known_hosts ${path} (presented ${presented})`);
  }
  throw mismatch(endpoint, trusted.map((e) => fingerprintOf(e.key)).join(" or "), presented, path);
}

function mismatch(endpoint: string, expected: string, presented: string, source?: string): HostKeyVerificationError {
  const from = source ? ` (from ${source})` : "";
  return new HostKeyVerificationError(
    `host key mismatch for ${endpoint}: expected ${expected}${from}, server presented ${presented}`,
  );
}
