// How to reach one host over SSH. Shaped like @pulumi/command's remote Connection so users
// can reuse what they know; validated elsewhere (provider/schemas), so no checks here.
export interface ConnectionSpec {
  host: string;
  /** Default 22. */
  port?: number;
  /** Default "root". */
  user?: string;
  password?: string;
  privateKey?: string;
  privateKeyPassword?: string;
  agentSocketPath?: string;
  /** Dial attempts before giving up. Default 10. */
  dialErrorLimit?: number;
  /** Seconds per dial attempt (TCP connect + handshake + auth). Default 15. */
  perDialTimeout?: number;
  /** Jump host (bastion); may itself have a proxy. */
  proxy?: ConnectionSpec;
  /** Pinned host key fingerprint, "SHA256:<base64 without padding>" as `ssh-keygen -lf` prints. */
  hostKey?: string;
  /** OpenSSH known_hosts file to verify the host key against (plain and hashed entries). */
  knownHostsPath?: string;
  /** Explicitly skip host key verification (logged as a warning). */
  insecureSkipHostKeyCheck?: boolean;
  /** Run commands through `sudo -n`. */
  sudo?: boolean;
}

export const DEFAULT_PORT = 22;
export const DEFAULT_USER = "root";
export const DEFAULT_DIAL_ERROR_LIMIT = 10;
export const DEFAULT_PER_DIAL_TIMEOUT_SECONDS = 15;

export function portOf(spec: ConnectionSpec): number {
  return spec.port ?? DEFAULT_PORT;
}

export function userOf(spec: ConnectionSpec): string {
  return spec.user ?? DEFAULT_USER;
}

/** "host:port" (IPv6 in brackets), for messages. */
export function endpointOf(spec: ConnectionSpec): string {
  const host = spec.host.includes(":") ? `[${spec.host}]` : spec.host;
  return `${host}:${portOf(spec)}`;
}

/** Pool key: "user@host:port", followed by " via user@jump:port" for each jump host. */
export function connectionKey(spec: ConnectionSpec): string {
  const self = `${userOf(spec)}@${endpointOf(spec)}`;
  return spec.proxy ? `${self} via ${connectionKey(spec.proxy)}` : self;
}

/** Every credential in the chain; masked out of errors and never logged. */
export function connectionSecrets(spec: ConnectionSpec): string[] {
  const own = [spec.password, spec.privateKeyPassword, spec.privateKey].filter((s): s is string => !!s);
  return spec.proxy ? [...own, ...connectionSecrets(spec.proxy)] : own;
}
