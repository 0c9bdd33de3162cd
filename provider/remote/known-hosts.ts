// OpenSSH known_hosts parsing and lookup (sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT").
import { createHmac } from "crypto";

export interface KnownHostEntry {
  /** "@revoked" lines list keys that must be refused; "@cert-authority" lines are ignored. */
  revoked: boolean;
  /** Comma-separated patterns, or one hashed "|1|salt|hash" name. */
  hosts: string;
  keyType: string;
  key: Buffer;
}

export function parseKnownHosts(text: string): KnownHostEntry[] {
  const entries: KnownHostEntry[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const fields = line.split(/\s+/);
    let marker: string | undefined;
    if (fields[0].startsWith("@")) marker = fields.shift();
    if (marker === "@cert-authority" || fields.length < 3) continue;
    entries.push({
      revoked: marker === "@revoked",
      hosts: fields[0],
      keyType: fields[1],
      key: Buffer.from(fields[2], "base64"),
    });
  }
  return entries;
}

/** The name OpenSSH looks up: "host" on port 22, else "[host]:port". */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** Whether an entry's host field matches `host:port` (hashed names, wildcards, negation). */
export function entryMatchesHost(entry: KnownHostEntry, host: string, port: number): boolean {
  const name = knownHostsName(host, port);
  if (entry.hosts.startsWith("|1|")) {
    const [, , salt, hash] = entry.hosts.split("|");
    if (!salt || !hash) return false;
    const digest = createHmac("sha1", Buffer.from(salt, "base64")).update(name).digest("base64");
    return digest === hash;
  }
  let matched = false;
  for (const pattern of entry.hosts.split(",")) {
    const negated = pattern.startsWith("!");
    if (!globMatch(negated ? pattern.slice(1) : pattern, name)) continue;
    if (negated) return false; // a matching negation wins over any positive match
    matched = true;
  }
  return matched;
}

/** Entries (non-revoked and revoked) that apply to `host:port`. */
export function entriesForHost(entries: readonly KnownHostEntry[], host: string, port: number): KnownHostEntry[] {
  return entries.filter((e) => entryMatchesHost(e, host, port));
}

// OpenSSH patterns: `*` any run, `?` one character, case-insensitive hostnames.
function globMatch(pattern: string, name: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${re}$`, "i").test(name);
}
