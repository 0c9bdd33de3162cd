// Opening one authenticated SSH connection, through any chain of jump hosts, with bounded retries.
import * as net from "net";
import { Duplex } from "stream";
import { Client, ConnectConfig, utils } from "ssh2";
import {
  ConnectionSpec,
  DEFAULT_DIAL_ERROR_LIMIT,
  DEFAULT_PER_DIAL_TIMEOUT_SECONDS,
  connectionKey,
  endpointOf,
  portOf,
  userOf,
} from "./connection";
import { AuthenticationError, ConnectionLostError, HostKeyVerificationError, HostUnreachableError } from "./errors";
import { HostKeyCheck, hostKeyCheckFor } from "./host-key";
import { log } from "./log";
import { RetriesExhausted, retry } from "./retry";
import { sessionKey } from "./session-key";
import { remoteSettings } from "./settings";

export interface Dialed {
  client: Client;
  /** connectionKey of this connection (with its jump chain), for messages. */
  name: string;
  /**
   * Whether this connection needs Node kept alive (it is in use). The TCP socket at the bottom of a chain can be shared
   * by several connections through one jump host: it stays referenced while any of them needs it.
   */
  keepProcessAlive(wanted: boolean): void;
  /**
   * Why this connection is unusable (it, or a jump connection under it, errored, ended, missed
   * keepalives or was closed); undefined while it is healthy.
   */
  downReason(): ConnectionLostError | undefined;
  /** `listener` runs once when the connection goes down (at once if it already is). Returns an unsubscribe. */
  onDown(listener: (reason: ConnectionLostError) => void): () => void;
  /** End this connection and every jump connection under it (idempotent). */
  close(): void;
}

/**
 * Dial `spec` (jump hosts first, recursively). Bad host keys and bad credentials fail at once. A jump host is dialed
 * once and shared by every connection through it with the same session key (a bastion sees one login, not one per
 * host behind it).
 */
export async function dial(spec: ConnectionSpec): Promise<Dialed> {
  const check = hostKeyCheckFor(spec); // refuses before any network traffic if nothing to verify against
  checkPrivateKey(spec);
  const jump = spec.proxy ? useJump(spec.proxy) : undefined;
  let via: Dialed | undefined;
  try {
    via = await jump?.ready;
  } catch (err) {
    jump?.release();
    throw err;
  }
  const endpoint = endpointOf(spec);
  const attempts = spec.dialErrorLimit ?? DEFAULT_DIAL_ERROR_LIMIT;
  const { backoffInitialMs, backoffMaxMs } = remoteSettings();
  try {
    return await retry(
      (attempt) => {
        log().debug(`ssh: dialing ${connectionKey(spec)} (attempt ${attempt}/${attempts})`);
        return dialOnce(spec, check, via, jump?.release);
      },
      {
        attempts,
        initialDelayMs: backoffInitialMs,
        maxDelayMs: backoffMaxMs,
        retryable: (err) =>
          !(err instanceof HostKeyVerificationError || err instanceof AuthenticationError || via?.downReason()),
        onRetry: (attempt, delay, err) =>
          log().debug(
            `ssh: dial ${endpoint} attempt ${attempt} failed (${(err as Error).message}); retry in ${delay}ms`,
          ),
      },
    );
  } catch (err) {
    jump?.release();
    if (err instanceof RetriesExhausted) throw new HostUnreachableError(endpoint, err.attempts, err.lastError);
    throw err;
  }
}

/**
 * A private key that cannot be read (not a key, encrypted without its passphrase, a wrong passphrase) is refused
 * before any network traffic, and not retried: no attempt could succeed.
 */
function checkPrivateKey(spec: ConnectionSpec): void {
  if (!spec.privateKey) return;
  const parsed = utils.parseKey(spec.privateKey, spec.privateKeyPassword);
  if (parsed instanceof Error) {
    throw new AuthenticationError(
      `cannot use the private key for ${userOf(spec)}@${endpointOf(spec)}: ${parsed.message}`,
    );
  }
}

interface SharedJump {
  ready: Promise<Dialed>;
  users: number;
}

/** Jump connections by sessionKey, each shared by the connections dialed through it. */
const jumps = new Map<string, SharedJump>();

/** The jump connection for `spec` (dialed on first use, again once it is down) and a release for this user. */
function useJump(spec: ConnectionSpec): { ready: Promise<Dialed>; release: () => void } {
  const key = sessionKey(spec);
  let jump = jumps.get(key);
  if (!jump) {
    const created: SharedJump = { ready: dial(spec), users: 0 };
    const forget = () => {
      if (jumps.get(key) === created) jumps.delete(key);
    };
    created.ready.then((d) => d.onDown(forget), forget);
    jumps.set(key, (jump = created));
  }
  const used = jump;
  used.users++;
  let released = false;
  return {
    ready: used.ready,
    // The last connection through a jump host closes it.
    release: () => {
      if (released) return;
      released = true;
      if (--used.users > 0) return;
      if (jumps.get(key) === used) jumps.delete(key);
      used.ready.then((d) => d.close()).catch(() => undefined);
    },
  };
}

/** Who needs each bottom socket referenced (connections through a shared jump host share its socket). */
const socketUsers = new WeakMap<net.Socket, Set<object>>();

function keepSocketAlive(socket: net.Socket, user: object, wanted: boolean): void {
  const users = socketUsers.get(socket) ?? new Set<object>();
  socketUsers.set(socket, users);
  if (wanted) users.add(user);
  else users.delete(user);
  if (users.size > 0) socket.ref();
  else socket.unref();
}

async function dialOnce(
  spec: ConnectionSpec,
  check: HostKeyCheck,
  via: Dialed | undefined,
  releaseVia: (() => void) | undefined,
): Promise<Dialed> {
  // 0 means no limit, as in @pulumi/command (and ssh2's readyTimeout).
  const timeoutMs = (spec.perDialTimeout ?? DEFAULT_PER_DIAL_TIMEOUT_SECONDS) * 1000;
  const port = portOf(spec);
  const sock: Duplex = via
    ? await withTimeout(forward(via.client, spec.host, port), timeoutMs, `forwarding to ${endpointOf(spec)}`)
    : net.connect({ host: spec.host, port });
  const socket = via instanceof LiveConnection ? via.socket : (sock as net.Socket);

  return new Promise<Dialed>((resolve, reject) => {
    const client = new Client();
    let settled = false;
    let hostKeyError: Error | undefined;
    let live: LiveConnection | undefined;
    // A permanent listener: ssh2 may emit more than one error, and an unhandled one would crash the process.
    client.on("error", (err: Error & { level?: string }) => {
      if (settled) {
        log().debug(`ssh: ${connectionKey(spec)}: ${err.message}`);
        return live?.fail(err.message);
      }
      settled = true;
      client.end();
      sock.destroy();
      if (hostKeyError) reject(hostKeyError);
      else if (err.level === "client-authentication")
        reject(
          new AuthenticationError(`authentication failed for ${userOf(spec)}@${endpointOf(spec)}: ${err.message}`),
        );
      else reject(err);
    });
    client.on("ready", () => {
      settled = true;
      const link = new LiveConnection(connectionKey(spec), client, sock, socket, via, releaseVia);
      live = link;
      // ssh2 fails pending channels only on "close", which a half-open forwarded stream (EOF
      // only) or a dead TCP path may never emit: treat "end" as fatal too.
      client.on("end", () => link.fail("connection ended by the server"));
      client.on("close", () => link.fail("connection closed"));
      resolve(link);
    });
    if (spec.password) {
      const password = spec.password;
      client.on("keyboard-interactive", (_name, _instr, _lang, prompts, finish) => finish(prompts.map(() => password)));
    }
    try {
      client.connect(
        connectConfig(spec, sock, timeoutMs, (key) => {
          try {
            check(key);
            return true;
          } catch (err) {
            hostKeyError = err as Error;
            return false;
          }
        }),
      );
    } catch (err) {
      // ssh2 refuses its config synchronously: the socket opened for it would be left to fail unheard.
      settled = true;
      sock.destroy();
      reject(err);
    }
  });
}

function connectConfig(spec: ConnectionSpec, sock: Duplex, timeoutMs: number, verify: (key: Buffer) => boolean) {
  const config: ConnectConfig = {
    sock,
    username: userOf(spec),
    readyTimeout: timeoutMs,
    hostVerifier: verify,
  };
  const { keepaliveIntervalMs, keepaliveCountMax } = remoteSettings();
  if (keepaliveIntervalMs > 0) {
    config.keepaliveInterval = keepaliveIntervalMs;
    config.keepaliveCountMax = keepaliveCountMax;
  }
  if (spec.password) {
    config.password = spec.password;
    config.tryKeyboard = true;
  }
  if (spec.privateKey) {
    config.privateKey = spec.privateKey;
    if (spec.privateKeyPassword) config.passphrase = spec.privateKeyPassword;
  }
  // Like OpenSSH: fall back to the user's agent only when no explicit credential is given.
  const agent = spec.agentSocketPath ?? (spec.password || spec.privateKey ? undefined : process.env.SSH_AUTH_SOCK);
  if (agent) config.agent = agent;
  return config;
}

// One established connection. When the jump connection under it (if any) goes down, so does this one; when this
// one is closed or goes down, it lets go of the jump connection, which closes once no connection uses it.
class LiveConnection implements Dialed {
  private reason: ConnectionLostError | undefined;
  private readonly listeners = new Set<(reason: ConnectionLostError) => void>();

  constructor(
    readonly name: string,
    readonly client: Client,
    private readonly sock: Duplex,
    readonly socket: net.Socket,
    via: Dialed | undefined,
    private readonly releaseVia: (() => void) | undefined,
  ) {
    via?.onDown((r) => this.fail(`jump host ${r.host}: ${r.reason}`));
  }

  keepProcessAlive(wanted: boolean): void {
    keepSocketAlive(this.socket, this, wanted && !this.reason);
  }

  downReason(): ConnectionLostError | undefined {
    return this.reason;
  }

  onDown(listener: (reason: ConnectionLostError) => void): () => void {
    if (this.reason) {
      listener(this.reason);
      return () => {};
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closed by us (idle, shutdown): polite disconnect, then force after a grace period. */
  close(): void {
    if (this.markDown("connection closed")) return;
    this.client.end();
    const force = setTimeout(() => this.destroy(), 1000);
    force.unref();
    this.releaseVia?.();
  }

  /** Broken: tear down at once, the peer is not listening anyway. */
  fail(reason: string): void {
    if (this.markDown(reason)) return;
    log().debug(`ssh: ${this.name}: connection down (${reason})`);
    this.destroy();
    this.releaseVia?.();
  }

  // Returns true if the connection was already down.
  private markDown(reason: string): boolean {
    if (this.reason) return true;
    this.reason = new ConnectionLostError(this.name, reason);
    keepSocketAlive(this.socket, this, false);
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener(this.reason);
    return false;
  }

  private destroy(): void {
    this.client.destroy();
    this.sock.destroy();
  }
}

// A direct-tcpip channel through the jump host; ssh2 accepts any Duplex as `sock`.
function forward(jump: Client, host: string, port: number): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    try {
      jump.forwardOut("127.0.0.1", 0, host, port, (err, stream) => (err ? reject(err) : resolve(stream)));
    } catch (err) {
      reject(err);
    }
  });
}

// Bounds the jump host's channel open; a stream that arrives after the deadline is destroyed.
function withTimeout(promise: Promise<Duplex>, ms: number, what: string): Promise<Duplex> {
  if (ms <= 0) return promise;
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reject(new Error(`timed out after ${ms}ms ${what}`));
    }, ms);
    promise.then(
      (stream) => {
        clearTimeout(timer);
        if (timedOut) stream.destroy();
        else resolve(stream);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
