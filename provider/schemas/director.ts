import { z } from "zod";
import { once } from "./once";
import { connectionSchema } from "./connection";
import { intInRange, IPVSADM_MAX_TIMEOUT_SECONDS } from "./fields";

export const directorInputsSchema = once(() => {
  return z.object({
    connection: connectionSchema().describe("SSH connection to the director (see Connection)"),
    installPackages: z
      .boolean()
      .default(false)
      .describe(
        "install ipvsadm and arping (and iptables, used by fullnat and fwmark matches) with apt/dnf/yum when missing (otherwise a missing ipvsadm or arping is an error)",
      ),
    // `ipvsadm --set tcp tcpfin udp`; an omitted value is sent as 0, which leaves it unchanged.
    timeouts: z
      .object({
        tcp: intInRange(1, IPVSADM_MAX_TIMEOUT_SECONDS).optional(),
        tcpFin: intInRange(1, IPVSADM_MAX_TIMEOUT_SECONDS).optional(),
        udp: intInRange(1, IPVSADM_MAX_TIMEOUT_SECONDS).optional(),
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
});

export type DirectorInputs = z.output<ReturnType<typeof directorInputsSchema>>;
