import { destinationKey, IpvsDestination, IpvsTable, ServiceId } from "../model/ipvs";
import { destinationCommand, destinationOptions, destinationRemoval, IpvsadmCommand } from "../model/ipvsadm";

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
