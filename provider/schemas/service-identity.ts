import { z } from "zod";
import { endpointAddressField, enumField, intInRange, portField } from "./fields";
import { FwmarkMatch, fwmarkMatchSchema } from "./fwmark-match";
import { Family, ipFamily } from "../model/ip";
import { PROTOCOLS, Protocol } from "../model/vocabulary";

/**
 * A virtual service is either protocol + VIP + port, or a firewall mark (with a family, no address or port). A fwmark
 * service's `match` says which packets get the mark, and so which VIPs it serves (held on directors and real servers).
 */
export function serviceIdentityShape() {
  return {
    protocol: enumField(PROTOCOLS, "protocol").optional(),
    address: endpointAddressField().optional(),
    port: portField().optional(),
    fwmark: intInRange(1, 4294967295).optional(),
    family: enumField(["inet", "inet6"], "family").optional(),
    match: fwmarkMatchSchema().optional(),
  };
}

export type ServiceIdentityFields = {
  protocol?: Protocol;
  address?: string;
  port?: number;
  fwmark?: number;
  family?: Family;
  match?: FwmarkMatch;
};

/** A VIP of a service and where it is written: `address`, or `match.addresses[i]` for a fwmark service. */
export interface ServiceVip {
  path: (string | number)[];
  address: string;
}

/** Every VIP a service serves, with its path: its address, and the VIPs its fwmark match selects. */
export function serviceVipFields(identity: Pick<ServiceIdentityFields, "address" | "match">): ServiceVip[] {
  return [
    ...(identity.address === undefined ? [] : [{ path: ["address"], address: identity.address }]),
    ...(identity.match?.addresses ?? []).map((address, i) => ({ path: ["match", "addresses", i], address })),
  ];
}

export function serviceFamily(identity: ServiceIdentityFields): Family {
  return identity.address !== undefined ? (ipFamily(identity.address) ?? "inet") : (identity.family ?? "inet");
}

export function checkServiceIdentity(identity: ServiceIdentityFields, ctx: z.core.$RefinementCtx): void {
  if (identity.fwmark !== undefined) {
    for (const field of ["protocol", "address", "port"] as const) {
      if (identity[field] !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: "is not allowed with fwmark (the mark selects packets)",
        });
      }
    }
    const family = serviceFamily(identity);
    identity.match?.addresses.forEach((address, index) => {
      if (ipFamily(address) !== family) {
        ctx.addIssue({
          code: "custom",
          path: ["match", "addresses", index],
          message: `is not ${family === "inet" ? "IPv4" : "IPv6"} like the service (family ${family})`,
        });
      }
    });
    return;
  }
  if (identity.match !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["match"],
      message: "is only for fwmark services (protocol, address and port select the packets)",
    });
  }
  for (const field of ["protocol", "address", "port"] as const) {
    if (identity[field] === undefined) {
      ctx.addIssue({ code: "custom", path: [field], message: "is required (or set fwmark instead)" });
    }
  }
  if (identity.family !== undefined) {
    ctx.addIssue({ code: "custom", path: ["family"], message: "is only for fwmark services; the VIP sets the family" });
  }
}
