import { z } from "zod";
import { once } from "./once";
import { connectionSchema } from "./connection";
import { checkCheckedService, checkedServiceFields, HealthCheck } from "./health-check";
import { enumField, interfaceNameField, intInRange, IPVSADM_MAX_TIMEOUT_SECONDS } from "./fields";
import { ipFamily, isIpv4Netmask, sameAddress } from "../model/ip";
import {
  checkServiceIdentity,
  serviceFamily,
  serviceIdentityShape,
  ServiceIdentityFields,
  serviceVipFields,
} from "./service-identity";
import { flagScheduler, SCHEDULER_FLAGS, SCHEDULERS, Scheduler, SchedulerFlag } from "../model/vocabulary";

export const virtualServiceInputsSchema = once(() => {
  const identity = serviceIdentityShape();
  return z
    .object({
      directors: z
        .array(connectionSchema())
        .min(1, { error: "must list at least one director" })
        .describe("Director resources or connections; every one carries the same table (e.g. an HA pair)"),
      protocol: identity.protocol.describe("required unless fwmark is set"),
      address: identity.address.describe("the VIP (IPv4 or IPv6); required unless fwmark is set"),
      port: identity.port.describe("the service port; required unless fwmark is set"),
      fwmark: identity.fwmark.describe("a firewall-mark service instead of protocol, address and port"),
      family: identity.family.describe("fwmark services only: the address family (default inet)"),
      match: identity.match.describe(
        'fwmark services only: `{protocol, addresses, ports}`, the packets marked on every director (iptables mangle, persisted): VIPs held like a service\'s address, ports as 80 or a range "8000-8100"',
      ),
      scheduler: enumField(SCHEDULERS, "scheduler").default("wlc").describe("IPVS scheduler (`-s`)"),
      schedulerFlags: z
        .array(enumField(SCHEDULER_FLAGS, "scheduler flag"))
        .default([])
        .describe("scheduler flags (`-b`): sh-* for the sh scheduler, mh-* for mh"),
      persistence: z
        .object({
          timeoutSeconds: intInRange(1, IPVSADM_MAX_TIMEOUT_SECONDS),
          netmask: z.union([z.string(), z.number()]).optional(),
        })
        .optional()
        .describe(
          "`{timeoutSeconds, netmask}`: persistent service (`-p`, `-M`); netmask: IPv4 dotted mask (255.255.255.0), IPv6 prefix length (64)",
        ),
      onePacket: z.boolean().default(false).describe("UDP one-packet scheduling (`-o`); udp or fwmark services only"),
      bindVip: z
        .boolean()
        .default(true)
        .describe("hold the VIP on the directors (false when something else does, e.g. keepalived in an HA pair)"),
      adopt: z
        .boolean()
        .optional()
        .describe(
          "take over a service with the same key that a director already has and lvs-pulumi did not create (it is then managed, and deleted with this resource); without it such a service is an error and is left as it is",
        ),
      vipInterface: interfaceNameField()
        .optional()
        .describe("the director interface that holds the VIP (default: the one the director routes the VIP through)"),
      ...checkedServiceFields(),
    })
    .superRefine(checkVirtualService);
});

export type VirtualServiceInputs = z.output<ReturnType<typeof virtualServiceInputsSchema>>;

type ServiceRuleFields = ServiceIdentityFields & {
  directors: { host: string }[];
  scheduler: Scheduler;
  schedulerFlags: SchedulerFlag[];
  persistence?: { netmask?: string | number };
  onePacket: boolean;
  healthCheck?: HealthCheck;
  sorryServer?: { address: string };
  quorum?: number;
  hysteresis?: number;
};

function checkVirtualService(value: ServiceRuleFields, ctx: z.core.$RefinementCtx): void {
  checkServiceIdentity(value, ctx);
  checkCheckedService(value, ctx);
  checkVipsNotDirectors(value, ctx);
  if (value.sorryServer !== undefined && ipFamily(value.sorryServer.address) !== serviceFamily(value)) {
    ctx.addIssue({
      code: "custom",
      path: ["sorryServer", "address"],
      message: "is not in the service's address family",
    });
  }
  value.schedulerFlags.forEach((flag, index) => {
    if (flagScheduler(flag) !== value.scheduler) {
      ctx.addIssue({
        code: "custom",
        path: ["schedulerFlags", index],
        message: `needs scheduler "${flagScheduler(flag)}" (scheduler is "${value.scheduler}")`,
      });
    }
  });
  const netmask = value.persistence?.netmask;
  if (netmask !== undefined) {
    const ok =
      serviceFamily(value) === "inet"
        ? typeof netmask === "string" && isIpv4Netmask(netmask)
        : typeof netmask === "number" && Number.isInteger(netmask) && netmask >= 1 && netmask <= 128;
    if (!ok) {
      const expected =
        serviceFamily(value) === "inet" ? "an IPv4 dotted mask like 255.255.255.0" : "a prefix length 1..128";
      ctx.addIssue({
        code: "custom",
        path: ["persistence", "netmask"],
        message: `does not fit the ${serviceFamily(value) === "inet" ? "IPv4" : "IPv6"} service: expected ${expected}`,
      });
    }
  }
  // One-packet scheduling only makes sense for datagrams; a fwmark may well select only UDP.
  if (value.onePacket && value.protocol !== undefined && value.protocol !== "udp") {
    ctx.addIssue({ code: "custom", path: ["onePacket"], message: "is only valid for udp (or fwmark) services" });
  }
}

/**
 * A VIP is added to and removed from the directors (and moved by keepalived in a pair): one that is a director's own
 * SSH address takes that address off the director when the service goes or the VIP moves, and the director with it.
 */
function checkVipsNotDirectors(value: ServiceRuleFields, ctx: z.core.$RefinementCtx): void {
  for (const vip of serviceVipFields(value)) {
    value.directors.forEach((director, index) => {
      if (sameAddress(vip.address, director.host)) {
        ctx.addIssue({
          code: "custom",
          path: vip.path,
          message:
            `is the address of directors[${index}] (its connection.host): a VIP is taken off the directors when ` +
            "the service goes or the VIP moves, and the director would lose the address it is reached on; use another VIP",
        });
      }
    });
  }
}
