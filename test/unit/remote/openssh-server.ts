// A private OpenSSH sshd for tests: 127.0.0.1 on random high ports, its own host key and
// authorized_keys in a temp dir, stopped by its PID. Needs /usr/sbin/sshd (scripts/setup.sh).
import { ChildProcess, execFileSync, spawn } from "child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import * as net from "net";
import { tmpdir } from "os";
import { join } from "path";

export const SSHD = "/usr/sbin/sshd";

export interface OpenSshServer {
  dir: string;
  /** Two listening ports on the same sshd, so tests can make two distinct pooled connections to one host. */
  ports: [number, number];
  /** Fingerprint as `ssh-keygen -lf` prints it for the host key. */
  fingerprint: string;
  privateKey: string;
  stop(): Promise<void>;
}

export async function startOpenSsh(): Promise<OpenSshServer> {
  const dir = mkdtempSync(join(tmpdir(), "lvs-sshd-"));
  const keygen = (file: string) => execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, file)]);
  keygen("host_key");
  keygen("client_key");
  writeFileSync(join(dir, "authorized_keys"), readFileSync(join(dir, "client_key.pub")));
  const fingerprint = execFileSync("ssh-keygen", ["-lf", join(dir, "host_key.pub")])
    .toString()
    .split(" ")[1];
  const ports: [number, number] = [await freePort(), await freePort()];
  const config = join(dir, "sshd_config");
  writeFileSync(
    config,
    [
      ...ports.map((p) => `Port ${p}`),
      "ListenAddress 127.0.0.1",
      `HostKey ${join(dir, "host_key")}`,
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      "PubkeyAuthentication yes",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "PermitRootLogin prohibit-password",
      "UsePAM no",
      "StrictModes no",
      "LogLevel ERROR",
      "",
    ].join("\n"),
  );
  // sshd insists on its privilege separation directory (systemd normally creates it).
  if (!existsSync("/run/sshd")) mkdirSync("/run/sshd", { mode: 0o755 });
  const child = spawn(SSHD, ["-D", "-e", "-f", config, "-o", `PidFile=${join(dir, "sshd.pid")}`], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await waitForPorts(ports, child);
  } catch (err) {
    await stop(child, exited);
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`sshd did not start: ${(err as Error).message}\n${log}`);
  }
  return {
    dir,
    ports,
    fingerprint,
    privateKey: readFileSync(join(dir, "client_key"), "utf8"),
    stop: async () => {
      await stop(child, exited);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Only ever our own child, by PID.
async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(child.pid, "SIGTERM");
  await exited;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForPorts(ports: number[], child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (const port of ports) {
    while (!(await canConnect(port))) {
      if (child.exitCode !== null) throw new Error(`sshd exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error(`port ${port} not listening after 10s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect(port, "127.0.0.1");
    sock.once("connect", () => {
      sock.destroy();
      resolve(true);
    });
    sock.once("error", () => resolve(false));
  });
}
