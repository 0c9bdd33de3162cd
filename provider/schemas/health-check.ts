import { z } from "zod";
import { endpointAddressField, enumField, intInRange, portField } from "./fields";

// keepalived's checkers (TCP_CHECK, HTTP_GET, SSL_GET, MISC_CHECK, DNS_CHECK) as inputs. Every value lands in
// keepalived.conf, whose words end at blanks and whose `"`, `#`, `!`, `{`, `}`, `$` mean something: free text is
// limited to characters that stay one plain word.
const PLAIN_WORD = /^[A-Za-z0-9_.~%:@+=,/?&;*-]+$/;

export const HEALTH_CHECK_TYPES = ["tcp", "http", "https", "misc", "dns"] as const;
export const DNS_RECORD_TYPES = ["A", "AAAA", "CNAME", "MX", "NS", "PTR", "SOA", "SRV", "TXT"] as const;

/** Timing and port, shared by every checker; keepalived's own defaults where it has a sensible one. */
function commonFields() {
  return {
    port: portField()
      .optional()
      .describe("port to check (`connect_port`); default: the real server's port (required for fwmark services)"),
    intervalSeconds: intInRange(1, 3600).default(6).describe("seconds between checks (`delay_loop`)"),
    connectTimeoutSeconds: intInRange(1, 3600).default(5).describe("connection timeout (`connect_timeout`)"),
    retries: intInRange(0, 255)
      .default(1)
      .describe("failed attempts retried before the real server counts as down (`retry`)"),
    delayBeforeRetrySeconds: intInRange(0, 3600).default(1).describe("pause before a retry (`delay_before_retry`)"),
    warmupSeconds: intInRange(0, 3600)
      .optional()
      .describe("random delay of up to this long before the first check (`warmup`): spreads checks out"),
    inhibitOnFailure: z
      .boolean()
      .default(false)
      .describe("a failed real server stays in the table with weight 0 (`inhibit_on_failure`) instead of leaving it"),
  };
}

function plainWord(what: string) {
  return z.string().regex(PLAIN_WORD, { error: `is not a valid ${what} (no blanks, quotes, #, !, {, }, $ or \\)` });
}

/** A program keepalived runs: argv, never parsed by a shell (a root-only script `exec`s it quoted for sh). */
export function programField() {
  return z
    .array(z.string().refine((value) => !value.includes("\0"), { error: "must not contain a NUL character" }))
    .min(1, { error: "must name a program" })
    .refine((argv) => argv.length === 0 || argv[0].startsWith("/"), {
      error: "must start with the program's absolute path",
    });
}

export function healthCheckSchema() {
  const common = commonFields();
  const http = {
    ...common,
    path: plainWord("URL path")
      .refine((value) => value.startsWith("/"), { error: 'must start with "/"' })
      .default("/")
      .describe("the URL path requested"),
    status: intInRange(100, 599).default(200).describe("the HTTP status that means healthy (`status_code`)"),
    digest: z
      .string()
      .regex(/^[0-9a-f]{32}$/, { error: "is not an MD5 digest (32 lowercase hex digits, as genhash prints it)" })
      .optional()
      .describe("MD5 of the expected body (`digest`, see keepalived's genhash)"),
    virtualHost: plainWord("host name").optional().describe("the Host header sent (`virtualhost`)"),
  };
  return z.discriminatedUnion(
    "type",
    [
      z.object({ type: z.literal("tcp"), ...common }),
      z.object({ type: z.literal("http"), ...http }),
      z.object({ type: z.literal("https"), ...http }),
      z.object({
        type: z.literal("misc"),
        ...common,
        command: programField().describe(
          "the program and its arguments (argv, never parsed by a shell); exit 0 is healthy; keepalived exports the real server's address in no variable, so pass it as an argument",
        ),
        timeoutSeconds: intInRange(1, 3600)
          .optional()
          .describe("the program is killed after this long (`misc_timeout`)"),
        dynamicWeight: z
          .boolean()
          .default(false)
          .describe("exit codes 2..255 set the weight to code - 2 (`misc_dynamic`)"),
      }),
      z.object({
        type: z.literal("dns"),
        ...common,
        name: plainWord("DNS name").describe("the name queried"),
        recordType: enumField(DNS_RECORD_TYPES, "DNS record type").default("A").describe("the record type queried"),
      }),
    ],
    { error: `is not a known health check; type is one of ${HEALTH_CHECK_TYPES.join(", ")}` },
  );
}

export type HealthCheck = z.output<ReturnType<typeof healthCheckSchema>>;

/** What a checked service adds on the service: keepalived's virtual_server settings about its real servers' health. */
export function checkedServiceFields() {
  return {
    healthCheck: healthCheckSchema()
      .optional()
      .describe(
        "checks every real server (a RealServer may override it): keepalived then owns this service on its directors and takes failed real servers out (see Health checks)",
      ),
    sorryServer: z
      .object({
        address: endpointAddressField(),
        port: portField().optional(),
        forwarding: enumField(["dr", "nat", "tun"], "forwarding method").default("nat"),
      })
      .optional()
      .describe(
        "checked services: `{address, port, forwarding}` served while no real server is healthy (`sorry_server`; forwarding dr, nat (default) or tun, the host needs what a real server of that method needs, e.g. the VIP on lo for dr)",
      ),
    quorum: intInRange(1, 65535)
      .optional()
      .describe("checked services: the sum of healthy weights below which the service counts as down (`quorum`)"),
    hysteresis: intInRange(0, 65535).optional().describe("checked services: slack around quorum (`hysteresis`)"),
    notifyQuorumUp: programField()
      .optional()
      .describe("checked services: run when the service gains quorum (`quorum_up`): argv, as a misc check's command"),
    notifyQuorumDown: programField()
      .optional()
      .describe("checked services: run when the service loses quorum (`quorum_down`): argv, as a misc check's command"),
    startHealthy: z
      .boolean()
      .default(false)
      .describe(
        "checked services: a real server gets traffic before its first check passed (keepalived without `alpha`); default false: a new or rebooted director sends nothing to a real server that is down",
      ),
  };
}

type CheckedServiceRuleFields = {
  healthCheck?: HealthCheck;
  sorryServer?: { address: string };
  quorum?: number;
  hysteresis?: number;
  notifyQuorumUp?: string[];
  notifyQuorumDown?: string[];
  fwmark?: number;
};

/** A fwmark service's real servers have no port: a check needs its own. */
export function checkHealthCheckPort(check: HealthCheck | undefined, fwmark: boolean, ctx: z.core.$RefinementCtx) {
  if (check !== undefined && fwmark && check.port === undefined && check.type !== "misc") {
    ctx.addIssue({
      code: "custom",
      path: ["healthCheck", "port"],
      message: "is required for a fwmark service (its real servers have no port to check)",
    });
  }
}

export function checkCheckedService(value: CheckedServiceRuleFields, ctx: z.core.$RefinementCtx): void {
  const issue = (path: string[], message: string) => ctx.addIssue({ code: "custom", path, message });
  if (value.healthCheck === undefined) {
    for (const field of ["sorryServer", "quorum", "hysteresis", "notifyQuorumUp", "notifyQuorumDown"] as const) {
      if (value[field] !== undefined) issue([field], "needs healthCheck (keepalived acts on checked services only)");
    }
  }
  if (value.hysteresis !== undefined && (value.quorum === undefined || value.hysteresis >= value.quorum)) {
    issue(["hysteresis"], `must be below quorum (${value.quorum ?? "not set"})`);
  }
  checkHealthCheckPort(value.healthCheck, value.fwmark !== undefined, ctx);
}
