import { HostSession } from "./session";

/**
 * An IPVS entry we are about to manage that exists without our boot fragment was made by someone else: taking it
 * over (and deleting it later) needs `adopt`. Throws before anything is changed.
 */
export function refuseForeign(
  session: HostSession,
  what: string,
  live: unknown,
  fragment: string | null,
  adopt: boolean | undefined,
): void {
  if (live !== undefined && fragment === null && adopt !== true) {
    throw new Error(
      `host ${session.name}: ${what} already exists and was not created by lvs-pulumi; it is left as it is ` +
        "(set adopt: true to take it over)",
    );
  }
}
