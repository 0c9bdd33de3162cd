import { CheckedRealServer } from "../facts/checker-state";
import { IpvsDestination, IpvsTable } from "../model/ipvs";
import { IpvsadmCommand } from "../model/ipvsadm";
import { planDestination } from "./real-server";

export type Health = "up" | "down";

/**
 * A checked real server's entry as refresh should judge it, with its health. Taken out by its check (absent, or at
 * weight 0 with inhibit_on_failure) is what keepalived wants: it reads as the desired entry, not as drift. Anything
 * else keepalived did not do (a hand edit) shows as it is; a weight its check set does not. Without keepalived's view
 * (not running) the entry is judged as it is.
 */
export function judgedEntry(
  desired: IpvsDestination,
  live: IpvsDestination | undefined,
  checker: CheckedRealServer | undefined,
): { entry: IpvsDestination | undefined; health: Health | undefined } {
  if (checker === undefined) return { entry: live, health: undefined };
  if (!checker.alive) {
    const takenOut = live === undefined || live.weight === 0;
    return { entry: takenOut ? desired : live, health: "down" };
  }
  // A weight keepalived gave it (a dynamic misc check) under the configured one is keepalived's to set: not drift.
  const setByCheck =
    live !== undefined && checker.configuredWeight === desired.weight && live.weight === checker.weight;
  return { entry: setByCheck ? { ...live, weight: desired.weight } : live, health: "up" };
}

/**
 * Repairs keepalived's entry of a healthy real server edited or deleted by hand: a reload never does (keepalived diffs
 * configurations, not the kernel). Its weight is keepalived's (a dynamic misc check may have set another).
 */
export function planCheckedRepair(
  desired: IpvsDestination,
  checker: CheckedRealServer | undefined,
  table: IpvsTable,
): IpvsadmCommand[] {
  if (!checker?.alive) return [];
  return planDestination({ ...desired, weight: checker.weight }, table);
}
