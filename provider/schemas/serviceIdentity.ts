import { z } from "zod";
import { endpointAddressField, enumField, intInRange, portField } from "./fields";
import { Family, ipFamily } from "./ip";
import { PROTOCOLS, Protocol } from "./vocabulary";

/** A virtual service is either protocol + VIP + port, or a firewall mark (with a family, no address or port). */
export function serviceIdentityShape() {
  return {
    protocol: enumField(PROTOCOLS, "protocol").optional(),
    address: endpointAddressField().optional(),
    port: portField().optional(),
    fwmark: intInRange(1, 4294967295).optional(),
    family: enumField(["inet", "inet6"], "family").optional(),
  };
}

export type ServiceIdentityFields = {
  protocol?: Protocol;
  address?: string;
  port?: number;
  fwmark?: number;
  family?: Family;
};

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
    return;
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
