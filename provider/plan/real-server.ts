import { destinationKey, IpvsDestination, IpvsTable, ServiceId } from "../model/ipvs";
import { destinationCommand, destinationOptions, destinationRemoval, IpvsadmCommand } from "../model/ipvsadm";
import { canonicalIp } from "../model/ip";
import { SnatRule } from "../model/snat-rule";
import { RealServerInputs } from "../schemas/real-server";
import { desiredServiceId } from "./desired-entries";

// A real server's validated inputs -> its entry as the kernel lists it (and the SNAT rule of fullnat), then the
// commands still needed for it.

export function desiredDestination(inputs: RealServerInputs): IpvsDestination {
  const service = desiredServiceId(inputs.service);
  const port = "fwmark" in service ? 0 : (inputs.port ?? service.port);
  const dest: IpvsDestination = {
    service,
    address: canonicalIp(inputs.address),
    port,
    forwarding: inputs.forwarding === "fullnat" ? "nat" : inputs.forwarding,
    weight: inputs.weight,
    upperThreshold: inputs.upperThreshold,
    lowerThreshold: inputs.lowerThreshold,
  };
  // ipvsadm -Sn prints --tun-type ipip for every tunnel destination.
  if (dest.forwarding === "tun") dest.tunnel = { type: "ipip" };
  return dest;
}

/** fullnat only: the SNAT rule that makes replies come back through the director. */
export function desiredSnatRule(inputs: RealServerInputs): SnatRule | undefined {
  const service = desiredServiceId(inputs.service);
  if (inputs.forwarding !== "fullnat" || inputs.snatSource === undefined || "fwmark" in service) return undefined;
  return {
    vip: service.address,
    port: service.port,
    rip: canonicalIp(inputs.address),
    toSource: canonicalIp(inputs.snatSource),
  };
}

/** Add (-a) when missing, edit (-e) when forwarding, weight, thresholds or tunnel differ, nothing when converged. */
export function planDestination(desired: IpvsDestination, live: IpvsTable): IpvsadmCommand[] {
  const current = live.destinations[destinationKey(desired.service, desired.address, desired.port)];
  if (current && sameDestination(current, desired)) return [];
  return [destinationCommand(current ? "-e" : "-a", desired)];
}

/** Quiesce for a drain: weight 0 keeps existing connections and sends no new ones; nothing when gone or quiesced. */
export function planQuiesce(service: ServiceId, address: string, port: number, live: IpvsTable): IpvsadmCommand[] {
  const current = live.destinations[destinationKey(service, address, port)];
  return current ? planDestination({ ...current, weight: 0 }, live) : [];
}

/** Delete (-d); nothing when the real server or its whole service is already gone. */
export function planDestinationRemoval(
  service: ServiceId,
  address: string,
  port: number,
  live: IpvsTable,
): IpvsadmCommand[] {
  const current = live.destinations[destinationKey(service, address, port)];
  return current ? [destinationRemoval(current)] : [];
}

export function sameDestination(a: IpvsDestination, b: IpvsDestination): boolean {
  return destinationOptions(a).join(" ") === destinationOptions(b).join(" ");
}
