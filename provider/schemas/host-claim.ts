import { z } from "zod";
import { once } from "./once";
import { HostClaim, HostOriginals } from "../model/host-claim";

// Claim and originals files are read back from hosts: validate them rather than trust whatever is there.

export const hostClaimSchema = once<z.ZodType<HostClaim>>(() => {
  const family = z.enum(["inet", "inet6"]);
  return z.object({
    id: z.string().min(1),
    vips: z.array(z.object({ dev: z.string(), cidr: z.string(), announce: z.boolean().optional() })),
    sysctls: z.record(z.string(), z.string()),
    routes: z.array(z.object({ family, to: z.string(), via: z.string() })),
    modules: z.array(z.string()),
    links: z.array(z.string()),
  });
});

export const hostOriginalsSchema = once<z.ZodType<HostOriginals>>(() => {
  const route = z.object({ via: z.string().optional(), dev: z.string().optional() });
  return z.object({
    sysctls: z.record(z.string(), z.string()),
    routes: z.record(z.string(), route.nullable()),
    vips: z.array(z.string()).optional(),
  });
});
