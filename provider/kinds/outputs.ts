// Outputs shared by the kinds: entries on every director of a service (missingFrom), and a host's side (hostDrift).
import { connectionKey, ConnectionSpec } from "../remote";
import { Props } from "./kind";

/**
 * Directors that lost an entry the others still list, or that an apply skipped as known down: `missingFrom` (absent
 * when none), drift that the next apply repairs (its expected live value is none). An undefined value removes the
 * one stored before.
 */
export function missing(missingFrom: string[]): Props {
  return { missingFrom: missingFrom.length > 0 ? missingFrom : undefined };
}

/** The outputs of an apply that skipped directors listed as down: those miss the entry until the next apply. */
export function skipped(down: ConnectionSpec[]): Props {
  return down.length > 0 ? { missingFrom: down.map(connectionKey) } : {};
}

/** Every director of the entry lists it: refresh names those that do not. */
export const ON_EVERY_DIRECTOR: Props = { missingFrom: undefined };

/**
 * What the next apply runs on a host to repair its side (`hostDrift`, absent when none): drift, whose expected live
 * value is none.
 */
export function hostDrift(lines: string[]): Props {
  return { hostDrift: lines.length > 0 ? lines : undefined };
}

/** The host holds all of its claimed setup: refresh names what it lacks. */
export const HOST_WHOLE: Props = { hostDrift: undefined };
