// Opening one authenticated SSH connection, through any chain of jump hosts, with bounded retries.
import * as net from "net";
import { Duplex } from "stream";
import { Client, ConnectConfig } from "ssh2";
import {
  ConnectionSpec,
  DEFAULT_DIAL_ERROR_LIMIT,
  DEFAULT_PER_DIAL_TIMEOUT_SECONDS,
  connectionKey,
  endpointOf,
  portOf,
  userOf,
} from "./connection";
import { AuthenticationError, HostKeyVerificationError, HostUnreachableError } from "./errors";
import { HostKeyCheck, hostKeyCheckFor } from "./host-key";
import { log } from "./log";
import { RetriesExhausted, retry } from "./retry";
import { remoteSettings } from "./settings";

export interface Dialed {
  client: Client;
  /** The TCP socket at the bottom of the chain; the pool (un)refs it so idle connections never keep Node alive. */
  socket: net.Socket;
  /** End this connection and every jump connection under it. */
  close(): void;
}

/** Dial `spec` (jump hosts first, recursively). Bad host keys and bad credentials fail at once. */
export async function dial(spec: ConnectionSpec): Promise<Dialed> {
  const check = hostKeyCheckFor(spec); // refuses before any network traffic if nothing to verify against
  const via = spec.proxy ? await dial(spec.proxy) : undefined;
  const endpoint = endpointOf(spec);
  const attempts = spec.dialErrorLimit ?? DEFAULT_DIAL_ERROR_LIMIT;
  const { backoffInitialMs, backoffMaxMs } = remoteSettings();
  try {
    return await retry(
      (attempt) => {
        log().debug(`ssh: dialing ${connectionKey(spec)} (attempt ${attempt}/${attempts})`);
        return dialOnce(spec, check, via);
      },
      {
        attempts,
        initialDelayMs: backoffInitialMs,
        maxDelayMs: backoffMaxMs,
        retryable: (err) => !(err instanceof HostKeyVerificationError || err instanceof AuthenticationError),
        onRetry: (attempt, delay, err) =>
          log().debug(
            `ssh: dial ${endpoint} attempt ${attempt} failed (${(err as Error).message}); retry in ${delay}ms`,
          ),
      },
    );
  } catch (err) {
    via?.close();
    if (err instanceof RetriesExhausted) throw new HostUnreachableError(endpoint, err.attempts, err.lastError);
    throw err;
  }
}

async function dialOnce(spec: ConnectionSpec, check: HostKeyCheck, via: Dialed | undefined): Promise<Dialed> {
  // 0 means no limit, as in @pulumi/command (and ssh2's readyTimeout).
  const timeoutMs = (spec.perDialTimeout ?? DEFAULT_PER_DIAL_TIMEOUT_SECONDS) * 1000;
  const port = portOf(spec);
  const sock: Duplex = via
    ? await withTimeout(forward(via.client, spec.host, port), timeoutMs, `forwarding to ${endpointOf(spec)}`)
    : net.connect({ host: spec.host, port });
  const socket = via ? via.socket : (sock as net.Socket);

  return new Promise<Dialed>((resolve, reject) => {
    const client = new Client();
    let settled = false;
    let hostKeyError: Error | undefined;
    const close = () => {
      client.end();
      via?.close();
    };
    // A permanent listener: ssh2 may emit more than one error, and an unhandled one would crash the process.
    client.on("error", (err: Error & { level?: string }) => {
      if (settled) return log().debug(`ssh: ${connectionKey(spec)}: ${err.message}`);
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
      // The jump connection exists only for this one; drop it with us (not on failed attempts: we retry over it).
      client.on("close", () => via?.close());
      resolve({ client, socket, close });
    });
    if (spec.password) {
      const password = spec.password;
      client.on("keyboard-interactive", (_name, _instr, _lang, prompts, finish) => finish(prompts.map(() => password)));
    }
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
  });
}

function connectConfig(spec: ConnectionSpec, sock: Duplex, timeoutMs: number, verify: (key: Buffer) => boolean) {
  const config: ConnectConfig = {
    sock,
    username: userOf(spec),
    readyTimeout: timeoutMs,
    hostVerifier: verify,
  };
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
