import { z } from "zod";
import { endpointAddressField, enumField } from "./fields";
import { PROTOCOLS, Protocol } from "../model/vocabulary";

/** What a fwmark service's mark selects: packets of one protocol to these VIPs and ports (a port or "low-high"). */
export interface FwmarkMatch {
  protocol: Protocol;
  addresses: string[];
  ports: (number | string)[];
}

export function fwmarkMatchSchema() {
  return z.object({
    protocol: enumField(PROTOCOLS, "protocol"),
    addresses: z.array(endpointAddressField()).min(1, { error: "must list at least one VIP" }),
    ports: z
      .array(
        z.union([z.number(), z.string()]).superRefine((value, ctx) => {
          if (portRange(value) === undefined) {
            ctx.addIssue({ code: "custom", message: "is not a port 1..65535 or a range low-high like 8000-8100" });
          }
        }),
      )
      .min(1, { error: "must list at least one port or port range" }),
  });
}

const isPort = (n: number) => Number.isInteger(n) && n >= 1 && n <= 65535;

/** [low, high] of a port (80) or range ("8000-8100"); undefined when it is neither. */
export function portRange(spec: number | string): [number, number] | undefined {
  if (typeof spec === "number") return isPort(spec) ? [spec, spec] : undefined;
  const bounds = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(spec.trim());
  if (!bounds) return undefined;
  const low = Number(bounds[1]);
  const high = Number(bounds[2] ?? bounds[1]);
  return isPort(low) && isPort(high) && low <= high ? [low, high] : undefined;
}
