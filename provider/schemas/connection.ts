import { z } from "zod";
import { intInRange } from "./fields";
import { ipFamily } from "./ip";

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
    host: z.string().refine(isHost, { error: "is not an IP address or host name" }),
    port: intInRange(1, 65535).default(22),
    user: z.string().regex(USER, { error: "is not a valid user name ([a-z_][a-z0-9_-]*)" }).default("root"),
    password: z.string().optional(),
    privateKey: z.string().optional(),
    privateKeyPassword: z.string().optional(),
    agentSocketPath: pathField().optional(),
    dialErrorLimit: intInRange(1, 1000).default(10),
    perDialTimeout: intInRange(1, 3600).default(15),
    hostKey: z.string().regex(HOST_KEY, { error: 'is not a host key fingerprint "SHA256:<base64>"' }).optional(),
    knownHostsPath: pathField().optional(),
    insecureSkipHostKeyCheck: z.boolean().default(false),
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

export function connectionSchema() {
  return z
    .object({
      ...connectionShape(),
      proxy: z.object(connectionShape()).superRefine(requireHostKey).optional(),
      sudo: z.boolean().default(false),
    })
    .superRefine(requireHostKey);
}

export type Connection = z.output<ReturnType<typeof connectionSchema>>;
