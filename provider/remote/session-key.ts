// Two specs may share an SSH session (a pooled connection, a jump connection, a lock shell) only when they agree on
// everything that decides whom it trusts and as whom it acts: otherwise whichever dialed first would decide the host
// key check, the credentials and sudo of the others.
import { createHmac, randomBytes } from "crypto";
import { ConnectionSpec, endpointOf, userOf } from "./connection";

// Keys only live in this process's maps: a key of its own means a key that leaks cannot be searched for a password.
const processKey = randomBytes(32);

/** "user@host:port#<digest of the trust settings, credentials and the jump chain's session key>". */
export function sessionKey(spec: ConnectionSpec): string {
  const trust = JSON.stringify([
    spec.hostKey ?? null,
    spec.knownHostsPath ?? null,
    spec.insecureSkipHostKeyCheck === true,
    spec.password ?? null,
    spec.privateKey ?? null,
    spec.privateKeyPassword ?? null,
    spec.agentSocketPath ?? null,
    spec.sudo === true,
    spec.proxy ? sessionKey(spec.proxy) : null,
  ]);
  return `${userOf(spec)}@${endpointOf(spec)}#${createHmac("sha256", processKey).update(trust).digest("base64url")}`;
}
