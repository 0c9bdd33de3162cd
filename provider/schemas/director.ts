import { z } from "zod";
import { connectionSchema } from "./connection";
import { intInRange } from "./fields";

// One year: far beyond any sane IPVS timeout, still safe from the kernel's jiffies overflow.
const MAX_TIMEOUT_SECONDS = 31_536_000;

export function directorInputsSchema() {
  return z.object({
    connection: connectionSchema().describe("SSH connection to the director (see Connection)"),
    installIpvsadm: z
      .boolean()
      .default(false)
      .describe("install ipvsadm with apt/dnf/yum when missing (otherwise missing is an error)"),
    // `ipvsadm --set tcp tcpfin udp`; an omitted value is sent as 0, which leaves it unchanged.
    timeouts: z
      .object({
        tcp: intInRange(1, MAX_TIMEOUT_SECONDS).optional(),
        tcpFin: intInRange(1, MAX_TIMEOUT_SECONDS).optional(),
        udp: intInRange(1, MAX_TIMEOUT_SECONDS).optional(),
      })
      .optional()
      .describe("`{tcp, tcpFin, udp}` in seconds: `ipvsadm --set`, persisted; an omitted one is left unchanged"),
    sysctls: z
      .object({
        expireNodestConn: z.boolean().default(true),
        expireQuiescentTemplate: z.boolean().default(true),
      })
      .prefault({})
      .describe(
        "`{expireNodestConn, expireQuiescentTemplate}`, each default true: connections to removed or weight-0 servers do not linger",
      ),
  });
}

export type DirectorInputs = z.output<ReturnType<typeof directorInputsSchema>>;
