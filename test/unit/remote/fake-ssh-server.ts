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
  /** Drop every client connection, as a network failure would. */
  dropAll(): void;
  close(): Promise<void>;
}

export const PASSWORD = "s3cret-pa55";

export function newHostKey(): { private: string; blob: Buffer; line: string } {
  const pair = utils.generateKeyPairSync("ed25519");
  const parsed = utils.parseKey(pair.public);
  if (parsed instanceof Error) throw parsed;
  const blob = parsed.getPublicSSH();
  return { private: pair.private, blob, line: `${parsed.type} ${blob.toString("base64")}` };
}

export async function startFakeServer(): Promise<FakeServer> {
  const key = newHostKey();
  const clients = new Set<Connection>();
  const fake: FakeServer = {
    port: 0,
    fingerprint: fingerprintOf(key.blob),
    publicKeyLine: key.line,
    connections: 0,
    authAttempts: 0,
    forwards: 0,
    dropAll: () => clients.forEach((c) => c.end()),
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
        const session = acceptSession();
        session.on("exec", (accept, _reject, info) => {
          const stream = accept();
          const child = spawn("sh", ["-c", info.command], { stdio: "pipe" });
          child.stdout.pipe(stream, { end: false });
          child.stderr.pipe(stream.stderr, { end: false });
          stream.pipe(child.stdin);
          child.stdin.on("error", () => {});
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
          channel.on("close", () => sock.destroy());
          sock.on("close", () => channel.close());
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.port = (server.address() as net.AddressInfo).port;
  return fake;
}
