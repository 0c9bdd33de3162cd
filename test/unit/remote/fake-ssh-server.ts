// In-process ssh2 server for transport edge cases. Commands really run (local `sh -c`, like
// sshd runs `$SHELL -c`), and direct-tcpip channels are piped to real TCP, so it can act as a jump host.
import { spawn } from "child_process";
import * as net from "net";
import { Connection, Server, utils } from "ssh2";
import { fingerprintOf } from "../../../provider/remote/host-key";

export interface FakeServer {
  port: number;
  /** SHA256 fingerprint of the server's host key. */
  fingerprint: string;
  /** "ssh-ed25519 AAAA..." as in a known_hosts line. */
  publicKeyLine: string;
  /** TCP connections accepted so far. */
  connections: number;
  /** Authentication attempts seen (any method other than "none"). */
  authAttempts: number;
  /** direct-tcpip (jump) channels opened. */
  forwards: number;
  /** Every exec request's command, in the order they arrived. */
  commands: string[];
  /** The environment commands run with (jest's process.env is the test's copy, not what child processes get). */
  env: NodeJS.ProcessEnv;
  /** Client connections currently open. */
  readonly open: number;
  /** Leave this many upcoming session (channel) opens unanswered, as a wedged server would. */
  stallSessions: number;
  /** Leave this many upcoming exec requests unanswered (the session channel itself opens fine). */
  stallExecs: number;
  /** Drop every client connection, as a network failure would. */
  dropAll(): void;
  /** Stop relaying data on every open direct-tcpip channel (both ways), leaving it open: a dead path behind the jump. */
  freezeForwards(): void;
  close(): Promise<void>;
}

export const PASSWORD = "s3cret-pa55";

export function newHostKey(): { private: string; blob: Buffer; line: string } {
  // ssh2's generator drops a public key's leading zero byte (about 1 key in 256), and its own parser then rejects
  // the key: draw again until it parses (stop 35's CI failed on one).
  for (;;) {
    const pair = utils.generateKeyPairSync("ed25519");
    const parsed = utils.parseKey(pair.public);
    if (parsed instanceof Error) continue;
    const blob = parsed.getPublicSSH();
    return { private: pair.private, blob, line: `${parsed.type} ${blob.toString("base64")}` };
  }
}

export async function startFakeServer(): Promise<FakeServer> {
  const key = newHostKey();
  const clients = new Set<Connection>();
  const forwards = new Set<() => void>();
  const fake: FakeServer = {
    port: 0,
    fingerprint: fingerprintOf(key.blob),
    publicKeyLine: key.line,
    connections: 0,
    authAttempts: 0,
    forwards: 0,
    commands: [],
    env: process.env,
    get open() {
      return clients.size;
    },
    stallSessions: 0,
    stallExecs: 0,
    dropAll: () => clients.forEach((c) => c.end()),
    freezeForwards: () => forwards.forEach((freeze) => freeze()),
    close: () =>
      new Promise<void>((resolve) => {
        clients.forEach((c) => c.end());
        server.close(() => resolve());
      }),
  };
  const server = new Server({ hostKeys: [key.private] }, (client) => {
    fake.connections++;
    clients.add(client);
    client.on("close", () => clients.delete(client));
    client.on("error", () => {});
    client.on("authentication", (ctx) => {
      if (ctx.method !== "none") fake.authAttempts++;
      if (ctx.method === "password" && ctx.password === PASSWORD) return ctx.accept();
      ctx.reject(["password"]);
    });
    client.on("ready", () => {
      client.on("session", (acceptSession) => {
        if (fake.stallSessions > 0) return void fake.stallSessions--;
        const session = acceptSession();
        session.on("exec", (accept, _reject, info) => {
          fake.commands.push(info.command);
          if (fake.stallExecs > 0) return void fake.stallExecs--;
          const stream = accept();
          const child = spawn("sh", ["-c", info.command], { stdio: "pipe", env: fake.env });
          child.stdout.pipe(stream, { end: false });
          child.stderr.pipe(stream.stderr, { end: false });
          stream.pipe(child.stdin);
          child.stdin.on("error", () => {});
          session.on("signal", (_accept, _reject, sig) => child.kill(`SIG${sig.name}` as NodeJS.Signals));
          child.on("close", (code) => {
            stream.exit(code ?? 255);
            stream.end();
          });
        });
      });
      client.on("tcpip", (accept, reject, info) => {
        fake.forwards++;
        const sock = net.connect(info.destPort, info.destIP);
        let connected = false;
        sock.on("error", () => (connected ? sock.destroy() : reject()));
        sock.once("connect", () => {
          connected = true;
          const channel = accept();
          channel.pipe(sock).pipe(channel);
          const freeze = () => {
            channel.unpipe(sock);
            sock.unpipe(channel);
            // Keep reading (and discarding) so EOF and close are still noticed.
            channel.on("data", () => {}).resume();
            sock.on("data", () => {}).resume();
          };
          forwards.add(freeze);
          client.on("close", () => sock.destroy()); // a frozen channel never emits its own close
          channel.on("close", () => {
            forwards.delete(freeze);
            sock.destroy();
          });
          sock.on("close", () => channel.close());
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.port = (server.address() as net.AddressInfo).port;
  return fake;
}

export interface Relay {
  port: number;
  /** Stop moving bytes on every connection relayed so far, leaving them open: a silently dead network path. */
  freeze(): void;
  close(): Promise<void>;
}

/** A TCP relay to 127.0.0.1:`port`, so tests can cut the path between client and server without closing it. */
export async function startRelay(port: number): Promise<Relay> {
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(port, "127.0.0.1");
    const pair: [net.Socket, net.Socket] = [inbound, outbound];
    pairs.add(pair);
    inbound.pipe(outbound).pipe(inbound);
    for (const s of pair) {
      s.on("error", () => {});
      s.on("close", () => {
        pairs.delete(pair);
        inbound.destroy();
        outbound.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze: () =>
      pairs.forEach(([a, b]) => {
        a.unpipe(b);
        b.unpipe(a);
        // Keep reading (and discarding) so EOF and close are still noticed.
        a.on("data", () => {}).resume();
        b.on("data", () => {}).resume();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        pairs.forEach(([a, b]) => (a.destroy(), b.destroy()));
        server.close(() => resolve());
      }),
  };
}
