import { IpvsService, IpvsTable, serviceKey, ServiceId } from "../model/ipvs";
import { IpvsadmCommand, serviceCommand, serviceOptions, serviceRemoval } from "../model/ipvsadm";

/** Create (-A) when missing, edit in place (-E) when its configuration differs, nothing when converged. */
export function planService(desired: IpvsService, live: IpvsTable): IpvsadmCommand[] {
  const current = live.services[serviceKey(desired.id)];
  if (current && sameService(current, desired)) return [];
  return [serviceCommand(current ? "-E" : "-A", desired)];
}

/** Delete (-D, which also removes its real servers); nothing when already gone. */
export function planServiceRemoval(id: ServiceId, live: IpvsTable): IpvsadmCommand[] {
  return live.services[serviceKey(id)] ? [serviceRemoval(id)] : [];
}

/** Compares configuration as ipvsadm lists it (the options it would be created with). */
export function sameService(a: IpvsService, b: IpvsService): boolean {
  return serviceOptions(a).join(" ") === serviceOptions(b).join(" ");
}
