import { z } from "zod";
import { once } from "./once";
import { connectionSchema } from "./connection";
import { checkHealthCheckPort, HealthCheck, healthCheckSchema, programField } from "./health-check";
import { endpointAddressField, enumField, intInRange, IPVSADM_MAX_THRESHOLD, portField } from "./fields";
import { cidrFamily, Family, ipFamily, sameAddress } from "../model/ip";
import {
  checkServiceIdentity,
  serviceFamily,
  serviceIdentityShape,
  ServiceIdentityFields,
  serviceVipFields,
} from "./service-identity";
import { FORWARDING_METHODS, ForwardingMethod } from "../model/vocabulary";

const DIRECTOR_ADDRESS = "a director address";

export const realServerInputsSchema = once(() => {
  return z
    .object({
      directors: z
        .array(connectionSchema())
        .min(1, { error: "must list at least one director" })
        .describe("the service's directors: taken from `service`, not set on a RealServer"),
      service: z
        .object(serviceIdentityShape())
        .superRefine(checkServiceIdentity)
        .describe("the VirtualService (its protocol, VIP and port, or fwmark)"),
      address: endpointAddressField().describe("the RIP, in the service's address family"),
      port: portField()
        .optional()
        .describe("default: the service's port; must equal it for dr and tun; none for fwmark services"),
      weight: intInRange(0, 65535).default(1).describe("scheduling weight (`-w`); 0 stops new connections"),
      upperThreshold: intInRange(0, IPVSADM_MAX_THRESHOLD)
        .default(0)
        .describe("connection upper threshold (`-x`); 0 means no limit"),
      lowerThreshold: intInRange(0, IPVSADM_MAX_THRESHOLD)
        .default(0)
        .describe("connection lower threshold (`-y`); must not exceed upperThreshold"),
      forwarding: enumField(FORWARDING_METHODS, "forwarding method")
        .default("dr")
        .describe("packet forwarding method: direct routing, masquerading, IP-in-IP tunnel, or NAT plus SNAT"),
      snatSource: endpointAddressField(DIRECTOR_ADDRESS)
        .optional()
        .describe("fullnat (required): the director's DIP that client addresses are translated to"),
      host: connectionSchema()
        .optional()
        .describe(
          "the real server's own connection: its side is set up too (VIP on lo/tunl0, sysctls, return route) and undone on delete",
        ),
      directorAddress: endpointAddressField(DIRECTOR_ADDRESS)
        .optional()
        .describe("nat, with host: the DIP the real server routes replies through (a route set on the real server)"),
      drainSeconds: intInRange(0, 86_400)
        .default(0)
        .describe(
          "on delete: weight 0 first (no new connections), then up to this long for its active connections to end, then removal; 0 removes at once",
        ),
      adopt: z
        .boolean()
        .optional()
        .describe(
          "take over a real server with the same key that a director already has and lvs-pulumi did not create (it is then managed, and deleted with this resource); without it such an entry is an error and is left as it is",
        ),
      clientPrefix: z
        .string()
        .optional()
        .describe("nat: route only this client prefix via directorAddress (default: the default route)"),
      serviceChecked: z
        .boolean()
        .default(false)
        .describe("whether the service has a healthCheck: taken from `service`, not set on a RealServer"),
      healthCheck: healthCheckSchema()
        .optional()
        .describe("this real server's own check instead of the service's healthCheck (checked services only)"),
      notifyUp: programField()
        .optional()
        .describe(
          "checked services: run when this real server passes its check again (`notify_up`): argv, as a misc check's command",
        ),
      notifyDown: programField()
        .optional()
        .describe(
          "checked services: run when this real server fails its check (`notify_down`): argv, as a misc check's command",
        ),
    })
    .superRefine(checkRealServer);
});

export type RealServerInputs = z.output<ReturnType<typeof realServerInputsSchema>>;

type RealServerRuleFields = {
  service: ServiceIdentityFields;
  address: string;
  port?: number;
  upperThreshold: number;
  lowerThreshold: number;
  forwarding: ForwardingMethod;
  snatSource?: string;
  host?: object;
  directorAddress?: string;
  clientPrefix?: string;
  serviceChecked: boolean;
  healthCheck?: HealthCheck;
  notifyUp?: string[];
  notifyDown?: string[];
};

function checkRealServer(value: RealServerRuleFields, ctx: z.core.$RefinementCtx): void {
  const issue = (path: string[], message: string) => ctx.addIssue({ code: "custom", path, message });
  const family = serviceFamily(value.service);
  const familyName = (f: Family) => (f === "inet" ? "IPv4" : "IPv6");
  const sameFamily = (field: "address" | "snatSource" | "directorAddress") => {
    const address = value[field];
    if (address !== undefined && ipFamily(address) !== family) {
      issue([field], `is not ${familyName(family)} like the service`);
    }
  };
  sameFamily("address");
  // The directors hold the VIP (and a dr or tun real server holds it on lo or tunl0): traffic to it never leaves them.
  for (const vip of serviceVipFields(value.service)) {
    if (sameAddress(value.address, vip.address)) {
      issue(
        ["address"],
        `is the service's VIP (service.${vip.path.join(".")}): a real server needs an address of its own, ` +
          "which the directors do not hold",
      );
    }
  }
  const fwmark = value.service.fwmark !== undefined;
  for (const field of ["healthCheck", "notifyUp", "notifyDown"] as const) {
    if (value[field] !== undefined && !value.serviceChecked) {
      issue([field], "needs a service with a healthCheck (keepalived checks the real servers of those only)");
    }
  }
  checkHealthCheckPort(value.healthCheck, fwmark, ctx);
  if (fwmark && value.port !== undefined) {
    issue(["port"], "is not allowed for a fwmark service");
  }
  // DR and TUN deliver the packet unchanged, so the real server must listen on the service port.
  if (!fwmark && (value.forwarding === "dr" || value.forwarding === "tun")) {
    if (value.port !== undefined && value.port !== value.service.port) {
      issue(["port"], `must equal the service port ${value.service.port} for ${value.forwarding}`);
    }
  }
  if (value.upperThreshold > 0 && value.lowerThreshold > value.upperThreshold) {
    issue(["lowerThreshold"], `must not exceed upperThreshold ${value.upperThreshold}`);
  }
  if (value.forwarding === "fullnat") {
    if (fwmark) issue(["forwarding"], "is not supported for fwmark services (the SNAT rule matches VIP:port)");
    if (value.snatSource === undefined) issue(["snatSource"], "is required for fullnat (the DIP to SNAT to)");
  } else if (value.snatSource !== undefined) {
    issue(["snatSource"], "is only for fullnat forwarding");
  }
  sameFamily("snatSource");
  if (value.forwarding !== "nat") {
    if (value.directorAddress !== undefined) issue(["directorAddress"], "is only for nat forwarding");
    if (value.clientPrefix !== undefined) issue(["clientPrefix"], "is only for nat forwarding");
  } else if (value.directorAddress !== undefined && value.host === undefined) {
    // The return route is set on the real server, over its own connection: without one nothing would set it.
    issue(
      ["directorAddress"],
      "needs host: the route through it is set up on the real server, over its host connection; " +
        "give host, or leave directorAddress out and route replies through the director yourself",
    );
  }
  sameFamily("directorAddress");
  if (value.clientPrefix !== undefined) {
    if (cidrFamily(value.clientPrefix) !== family) {
      issue(["clientPrefix"], `is not an ${familyName(family)} prefix (address/length) like the service`);
    } else if (value.directorAddress === undefined) {
      issue(["directorAddress"], "is required with clientPrefix (the gateway for that prefix)");
    }
  }
}
