import { destinationKey, IpvsDestination, IpvsTable, ServiceId } from "../facts/ipvsModel";
import { destinationArgs, destinationOptions } from "./ipvsadmArgs";
import { command } from "./shell";

/** Add (-a) when missing, edit (-e) when forwarding, weight, thresholds or tunnel differ, nothing when converged. */
export function planDestination(desired: IpvsDestination, live: IpvsTable): string[] {
  const current = live.destinations[destinationKey(desired.service, desired.address, desired.port)];
  if (current && sameDestination(current, desired)) return [];
  const verb = current ? "-e" : "-a";
  return [command("ipvsadm", verb, ...destinationArgs(desired), ...destinationOptions(desired))];
}

/** Delete (-d); nothing when the real server or its whole service is already gone. */
export function planDestinationRemoval(service: ServiceId, address: string, port: number, live: IpvsTable): string[] {
  const current = live.destinations[destinationKey(service, address, port)];
  return current ? [command("ipvsadm", "-d", ...destinationArgs(current))] : [];
}

export function sameDestination(a: IpvsDestination, b: IpvsDestination): boolean {
  return destinationOptions(a).join(" ") === destinationOptions(b).join(" ");
}
