// Test helpers for the running lab (see `npm run lab:up`). They talk to lab hosts with OpenSSH through the VM as
// jump host, using the lab's own ssh_config (connection reuse by control masters), never through the product.
import { execFile, spawn, ChildProcess } from "child_process";
import * as fs from "fs";
import * as path from "path";

export const labStateDir = process.env.LVS_LAB_STATE ?? path.resolve(__dirname, "../../.lab");
const sshConfig = path.join(labStateDir, "ssh_config");

export interface LabConnection {
  host: string;
  port: number;
  user: string;
  privateKeyPath: string;
  hostKey: string;
  proxy?: LabConnection;
}

export interface LabInterface {
  name: string;
  subnet: string;
  ipv4?: string;
  ipv6?: string;
}

export interface LabHost {
  role: string;
  connection: LabConnection;
  interfaces: LabInterface[];
}

export interface LabDescription {
  jump: LabConnection;
  /** The non-root user on every host (passwordless sudo on directors and real servers) and its key. */
  sudoUser: { user: string; privateKeyPath: string };
  hosts: Record<string, LabHost>;
}

export interface LabTopology {
  subnets: Record<string, { bridge: string; ipv4: string; ipv6?: string }>;
  freeVips: { ipv4: string[]; ipv6: string[] };
  directors: Record<string, { dip: { lan: string; nat: string }; dip6: string }>;
  routerAddresses: Record<string, string>;
}

export function labHosts(): LabDescription {
  return JSON.parse(fs.readFileSync(path.join(labStateDir, "hosts.json"), "utf8")) as LabDescription;
}

export function labTopology(): LabTopology {
  return JSON.parse(fs.readFileSync(path.join(labStateDir, "topology.json"), "utf8")) as LabTopology;
}

export interface CommandResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** Runs a shell command on a lab host (or on `lab-vm`); resolves with its exit code, never throws on non-zero. */
export function labRun(host: string, command: string, timeoutMs = 120_000): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(
      "ssh",
      ["-F", sshConfig, host, command],
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 255) : 0;
        resolve({ stdout: stdout.toString(), stderr: stderr.toString(), code });
      },
    );
  });
}

/** Like labRun, but a non-zero exit is an error naming the host, the command and its stderr. */
export async function labExec(host: string, command: string, timeoutMs?: number): Promise<string> {
  const result = await labRun(host, command, timeoutMs);
  if (result.code !== 0) {
    throw new Error(`lab host ${host}: \`${command}\` exited ${result.code}: ${result.stderr.trim()}`);
  }
  return result.stdout;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `probe` every half second until it is true; returns the milliseconds it took. */
export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await probe().catch(() => false)) return Date.now() - started;
    await sleep(500);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

async function dropControlMaster(host: string): Promise<void> {
  await new Promise<void>((resolve) => execFile("ssh", ["-F", sshConfig, "-O", "exit", host], () => resolve()));
}

/**
 * Reboots a lab host through its own systemd and waits until it answers SSH from its new boot. A marker in /run
 * (a tmpfs of that boot) tells the new boot from the old one.
 */
export async function rebootHost(host: string, timeoutMs = 180_000): Promise<number> {
  const started = Date.now();
  await labExec(host, "echo before-reboot > /run/lab-boot-marker");
  await labRun(host, "systemctl reboot", 20_000);
  await dropControlMaster(host);
  while (Date.now() - started < timeoutMs) {
    await sleep(2000);
    const probe = await labRun(host, "cat /run/lab-boot-marker 2>/dev/null || echo new-boot", 20_000);
    if (probe.code === 0 && probe.stdout.trim() === "new-boot") {
      await labExec(host, "systemctl is-system-running --wait >/dev/null 2>&1 || true", 60_000);
      return Date.now() - started;
    }
    if (probe.code !== 0) await dropControlMaster(host);
  }
  throw new Error(`lab host ${host} did not come back over SSH within ${timeoutMs} ms after reboot`);
}

export function urlFor(vip: string, port: number): string {
  return vip.includes(":") ? `http://[${vip}]:${port}/` : `http://${vip}:${port}/`;
}

/** Sends n HTTP requests through a VIP from `client`, each on a new connection; returns who answered each. */
export async function fetchThroughVip(vip: string, port: number, n: number): Promise<string[]> {
  const url = urlFor(vip, port);
  const out = await labExec(
    "client",
    `for i in $(seq 1 ${n}); do curl -s -m 3 '${url}' || echo FAILED; done`,
    60_000 + n * 3000,
  );
  return out.split("\n").filter((line) => line.length > 0);
}

/** Counts answers per real server name. */
export function tally(names: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of names) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

export interface HeldConnection {
  close(): void;
}

/** Opens one TCP connection from `client` to the VIP and holds it open until close() (or `seconds`). */
export function holdConnection(vip: string, port: number, seconds: number): HeldConnection {
  const child: ChildProcess = spawn(
    "ssh",
    ["-F", sshConfig, "client", `sleep ${seconds} | busybox nc '${vip}' ${port} >/dev/null`],
    { stdio: "ignore" },
  );
  return { close: () => child.kill("SIGTERM") };
}

export interface LoadResult {
  ok: number;
  failed: number;
}

/** Steady request load through a VIP for a bounded time; counts successes and failures. */
export async function steadyLoad(vip: string, port: number, seconds: number): Promise<LoadResult> {
  const url = urlFor(vip, port);
  const out = await labExec(
    "client",
    `end=$(($(date +%s) + ${seconds})); ok=0; failed=0
     while [ "$(date +%s)" -lt "$end" ]; do
       if curl -s -m 1 -o /dev/null '${url}'; then ok=$((ok + 1)); else failed=$((failed + 1)); fi
       sleep 0.05
     done
     echo "$ok $failed"`,
    (seconds + 60) * 1000,
  );
  const [ok, failed] = out.trim().split(/\s+/).map(Number);
  return { ok, failed };
}

/** The director's live IPVS table as `ipvsadm -Sn` prints it. */
export function liveIpvsTable(host: string): Promise<string> {
  return labExec(host, "ipvsadm -Sn");
}
