import { z } from "zod";
import { canonicalIp, ipFamily, unusableAddress } from "../model/ip";

// Field builders are functions: Pulumi's closure serializer cannot capture module-level zod objects.

export function intInRange(min: number, max: number) {
  const range = `is out of range ${min}..${max}`;
  return z
    .number()
    .int({ error: `is not an integer in ${min}..${max}` })
    .min(min, { error: range })
    .max(max, { error: range });
}

// ipvsadm's own limits (ipvsadm.c): persistence and --set timeouts up to 31 days, thresholds up to INT_MAX.
export const IPVSADM_MAX_TIMEOUT_SECONDS = 86_400 * 31;
export const IPVSADM_MAX_THRESHOLD = 2 ** 31 - 1;

export function portField() {
  return intInRange(1, 65535);
}

/** An IP address, checked and then written as the kernel lists it: "2001:DB8::0:1" and "2001:db8::1" are one entry. */
function ipAddressField() {
  return z
    .string()
    .refine((value) => ipFamily(value) !== undefined, { error: "is not an IPv4 or IPv6 address" })
    .overwrite((value) => (ipFamily(value) !== undefined ? canonicalIp(value) : value));
}

/**
 * A VIP or RIP (or, named by `usableAs`, another address packets go to or come from, such as a DIP): a literal
 * address that can carry traffic (not loopback, multicast, link-local, "any"...).
 */
export function endpointAddressField(usableAs?: string) {
  return ipAddressField().superRefine((value, ctx) => {
    const reason = ipFamily(value) === undefined ? undefined : unusableAddress(value, usableAs);
    if (reason !== undefined) ctx.addIssue({ code: "custom", message: reason });
  });
}

export function enumField<const T extends readonly [string, ...string[]]>(values: T, what: string) {
  return z.enum(values, { error: `is not a known ${what}; allowed: ${values.join(", ")}` });
}

/** A Linux interface name as `ip link` takes it (IFNAMSIZ: at most 15 characters). */
export function interfaceNameField() {
  return z.string().regex(/^[A-Za-z0-9_.:-]{1,15}$/, { error: "is not an interface name" });
}
