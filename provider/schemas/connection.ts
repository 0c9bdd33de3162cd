import { z } from "zod";
import { once } from "./once";
import { intInRange } from "./fields";
import { canonicalIp, hostPort, ipFamily } from "../model/ip";

// RFC 1123 host names; the last label may not be all digits, so "999.1.1.1" is not taken for a name.
const HOSTNAME =
  /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const HOST_KEY = /^SHA256:[A-Za-z0-9+/]{43}=?$/;
const USER = /^[a-z_][a-z0-9_-]{0,31}$/;

function isHost(value: string): boolean {
  if (ipFamily(value) !== undefined) return true;
  return HOSTNAME.test(value) && !/^\d+$/.test(value.split(".").pop() ?? "");
}

function pathField() {
  return z
    .string()
    .min(1, { error: "must not be empty" })
    .refine((value) => !/[\0\n]/.test(value), { error: "must not contain NUL or newline" });
}

/** The fields shared by a connection and its jump host (shaped like @pulumi/command's remote Connection). */
function connectionShape() {
  return {
    host: z
      .string()
      .refine(isHost, { error: "is not an IP address or host name" })
      .describe("IP address or host name of the SSH server"),
    port: intInRange(1, 65535).default(22).describe("SSH port"),
    user: z
      .string()
      .regex(USER, { error: "is not a valid user name ([a-z_][a-z0-9_-]*)" })
      .default("root")
      .describe("SSH user"),
    password: z.string().optional().describe("password (or keyboard-interactive) authentication"),
    privateKey: z.string().optional().describe("private key (PEM/OpenSSH text, not a path)"),
    privateKeyPassword: z.string().optional().describe("passphrase of `privateKey`"),
    agentSocketPath: pathField()
      .optional()
      .describe("ssh-agent socket; by default `SSH_AUTH_SOCK` when neither password nor privateKey is given"),
    dialErrorLimit: intInRange(1, 1000)
      .default(10)
      .describe("connection attempts before the host counts as unreachable"),
    perDialTimeout: intInRange(1, 3600).default(15).describe("seconds allowed for each connection attempt"),
    hostKey: z
      .string()
      .regex(HOST_KEY, { error: 'is not a host key fingerprint "SHA256:<base64>"' })
      .optional()
      .describe("pinned host key fingerprint `SHA256:…` as `ssh-keygen -lf` prints it"),
    knownHostsPath: pathField()
      .optional()
      .describe("a known_hosts file (on the machine running Pulumi) to verify the host key against"),
    insecureSkipHostKeyCheck: z
      .boolean()
      .default(false)
      .describe("turn host key verification off: one of hostKey, knownHostsPath or this is required"),
  };
}

type HostKeyFields = { hostKey?: string; knownHostsPath?: string; insecureSkipHostKeyCheck: boolean };

// Host key verification is on by default: an unpinned connection must opt out explicitly.
function requireHostKey(value: HostKeyFields, ctx: z.core.$RefinementCtx<HostKeyFields>): void {
  if (value.hostKey === undefined && value.knownHostsPath === undefined && !value.insecureSkipHostKeyCheck) {
    ctx.addIssue({
      code: "custom",
      path: ["hostKey"],
      message: "is required: pin the host key, or set knownHostsPath, or set insecureSkipHostKeyCheck: true",
    });
  }
}

export const connectionSchema = once(() => {
  return z
    .object({
      ...connectionShape(),
      proxy: z
        .object(connectionShape())
        .superRefine(requireHostKey)
        .optional()
        .describe("jump host (bastion): a connection of its own, without proxy and sudo"),
      sudo: z.boolean().default(false).describe("run commands through `sudo -n` (for a non-root user)"),
    })
    .superRefine(requireHostKey);
});

export type Connection = z.output<ReturnType<typeof connectionSchema>>;

/**
 * "host:port" with the host as one spelling per address: an IP address as the kernel prints it, a host name in lower
 * case (DNS names are case-insensitive), port 22 when omitted. Two connections with one key reach one sshd.
 */
export function hostKey(connection: { host: string; port?: number }): string {
  const host = ipFamily(connection.host) !== undefined ? canonicalIp(connection.host) : connection.host.toLowerCase();
  return hostPort(host, connection.port ?? 22);
}
