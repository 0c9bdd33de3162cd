import { IpvsTable } from "../facts/ipvs-model";
import { planDestination, planDestinationRemoval } from "./real-server";
import { planService, planServiceRemoval } from "./virtual-service";

/**
 * Seesaw-style keyed diff of the entries we own: `desired` holds what should exist, `released` what we owned and no
 * longer want. Entries in neither (foreign ones) are never touched. Order: services are created before their real
 * servers are added; real servers are deleted before services, except where deleting the service removes them.
 */
export function planTableDiff(desired: IpvsTable, released: IpvsTable, live: IpvsTable): string[] {
  const goneServices = new Set(Object.keys(released.services).filter((key) => !desired.services[key]));
  const commands: string[] = [];
  for (const service of Object.values(desired.services)) commands.push(...planService(service, live));
  for (const dest of Object.values(desired.destinations)) commands.push(...planDestination(dest, live));
  for (const [key, dest] of Object.entries(released.destinations)) {
    if (desired.destinations[key] || goneServices.has(key.slice(0, key.lastIndexOf("/")))) continue;
    commands.push(...planDestinationRemoval(dest.service, dest.address, dest.port, live));
  }
  for (const key of goneServices) commands.push(...planServiceRemoval(released.services[key].id, live));
  return commands;
}
