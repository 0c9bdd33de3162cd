import { CheckedRealServer } from "../facts/checker-state";
import { destinationKey, IpvsDestination, IpvsService, IpvsTable, serviceKey } from "../model/ipvs";
import { judgedEntry, planCheckedRepair } from "./checked-real-server";
import { destinationOptions, IpvsadmCommand, serviceOptions } from "../model/ipvsadm";
import { sameDestination } from "./real-server";
import { planService, sameService } from "./virtual-service";

/** What a checked item's configuration puts in keepalived's table. */
export type KeepalivedEntry = { service: IpvsService } | { destination: IpvsDestination };

/**
 * The entries keepalived has not applied (yet: a reload is asynchronous), each with what the table holds instead.
 * Only services with real servers count (keepalived ignores one without), `enabled` says which. A real server its
 * check keeps out, or whose weight a dynamic misc check set, is applied as configured (see judgedEntry).
 */
export function unappliedEntries(
  expected: KeepalivedEntry[],
  table: IpvsTable,
  checker: Record<string, CheckedRealServer>,
  enabled: (serviceKey: string) => boolean,
): string[] {
  return expected.flatMap((entry) => {
    if ("service" in entry) {
      const key = serviceKey(entry.service.id);
      if (!enabled(key)) return [];
      const live = table.services[key];
      if (live === undefined) return [`service ${key} is not in the table`];
      if (sameService(live, entry.service)) return [];
      return [
        `service ${key} is "${serviceOptions(live).join(" ")}", configured "${serviceOptions(entry.service).join(" ")}"`,
      ];
    }
    const { destination: desired } = entry;
    if (!enabled(serviceKey(desired.service))) return [];
    const key = destinationKey(desired.service, desired.address, desired.port);
    const state = checker[key];
    // Its configured weight in keepalived's dump tells that the reload reached the checker.
    if (state === undefined || state.configuredWeight !== desired.weight) return [`real server ${key} is not loaded`];
    const { entry: live } = judgedEntry(desired, table.destinations[key], state);
    if (live === undefined) return [`real server ${key} is not in the table`];
    if (sameDestination(live, desired)) return [];
    return [
      `real server ${key} is "${destinationOptions(live).join(" ")}", configured "${destinationOptions(desired).join(" ")}"`,
    ];
  });
}

/**
 * A starting checker takes the entries already in the table over as they are (keepalived's add meets "already
 * exists" and edits nothing): the edits that make them what it has loaded (real servers it judges up; a service
 * only when it is there, keepalived adds a missing one).
 */
export function planTakenOverRepairs(
  expected: KeepalivedEntry[],
  table: IpvsTable,
  checker: Record<string, CheckedRealServer>,
  enabled: (serviceKey: string) => boolean,
): IpvsadmCommand[] {
  return expected.flatMap((entry) => {
    if ("service" in entry) {
      const key = serviceKey(entry.service.id);
      return enabled(key) && table.services[key] ? planService(entry.service, table) : [];
    }
    const { destination: desired } = entry;
    const state = checker[destinationKey(desired.service, desired.address, desired.port)];
    if (!enabled(serviceKey(desired.service)) || state?.configuredWeight !== desired.weight) return [];
    return planCheckedRepair(desired, state, table);
  });
}
