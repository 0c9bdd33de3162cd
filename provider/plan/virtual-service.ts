import { IpvsService, IpvsTable, serviceKey, ServiceId } from "../model/ipvs";
import { serviceArgs, serviceOptions } from "../model/ipvsadm";
import { command } from "../model/shell";

/** Create (-A) when missing, edit in place (-E) when its configuration differs, nothing when converged. */
export function planService(desired: IpvsService, live: IpvsTable): string[] {
  const current = live.services[serviceKey(desired.id)];
  if (current && sameService(current, desired)) return [];
  const verb = current ? "-E" : "-A";
  return [command("ipvsadm", verb, ...serviceArgs(desired.id), ...serviceOptions(desired))];
}

/** Delete (-D, which also removes its real servers); nothing when already gone. */
export function planServiceRemoval(id: ServiceId, live: IpvsTable): string[] {
  return live.services[serviceKey(id)] ? [command("ipvsadm", "-D", ...serviceArgs(id))] : [];
}

/** Compares configuration as ipvsadm lists it (the options it would be created with). */
export function sameService(a: IpvsService, b: IpvsService): boolean {
  return serviceOptions(a).join(" ") === serviceOptions(b).join(" ");
}
