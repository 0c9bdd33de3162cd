import { log } from "../remote";
import { HostSession } from "./session";

/**
 * An IPVS entry we are about to manage that exists without our boot fragment was made by someone else: taking it
 * over (and deleting it later) needs `adopt`. Throws before anything is changed; with `adopt`, says that it is taken
 * over (the preview could only say that it might be: runtime/adoption.ts).
 */
export function refuseForeign(
  session: HostSession,
  what: string,
  live: unknown,
  fragment: string | null,
  adopt: boolean | undefined,
): void {
  if (live === undefined || fragment !== null) return;
  if (adopt === true) {
    log().warn(
      `host ${session.name}: ${what} existed and was not created by lvs-pulumi: taken over (adopt: true); it is ` +
        "managed from now on and deleted with this resource",
    );
    return;
  }
  throw new Error(
    `host ${session.name}: ${what} already exists and was not created by lvs-pulumi; it is left as it is ` +
      "(set adopt: true to take it over)",
  );
}
