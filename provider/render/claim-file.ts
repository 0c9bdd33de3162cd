import { HostClaim, HostOriginals } from "../model/host-claim";

/** One line of JSON per claim file, so `cat claims.d/*.json` yields one claim per line. */
export function renderClaimFile(claim: HostClaim): string {
  return `${JSON.stringify(claim)}\n`;
}

export function renderOriginalsFile(originals: HostOriginals): string {
  return `${JSON.stringify(originals, null, 2)}\n`;
}
