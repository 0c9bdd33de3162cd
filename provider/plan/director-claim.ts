// A Director resource's setup of its host (modules, sysctls) as a host claim (model/host-claim.ts). Each Director
// resource on the host holds its own (plan/owners.ts): a renamed resource, created before its old name is deleted,
// keeps the setup in place.
import { HostClaim } from "../model/host-claim";
import { Actor, claimIdsOf, releasedClaimIds } from "./owners";

const DIRECTOR_CLAIM = "director";

/** `actor`'s claim of the director's `state`, and the claims it replaces (its former URN's, an older lvs-pulumi's). */
export function directorClaim(
  state: { sysctls: Record<string, string>; modules: string[] },
  actor: Actor,
): { claim: HostClaim; superseded: string[] } {
  const { own, superseded } = claimIdsOf(DIRECTOR_CLAIM, actor);
  return {
    claim: { id: own, vips: [], sysctls: state.sysctls, routes: [], modules: state.modules, links: [] },
    superseded,
  };
}

/**
 * What removing `actor`'s Director does on a host storing `claims`: while another Director resource holds the host
 * (`shared`: the new name of a rename), only `actor`'s claim goes and the setup stays (an older lvs-pulumi's shared
 * claim stays with the owners left); otherwise the setup goes, and the claims `release` last.
 */
export function directorRelease(claims: HostClaim[], actor: Actor): { shared: boolean; release: string[] } {
  const mine = releasedClaimIds(DIRECTOR_CLAIM, actor, false);
  const shared = claims.some((c) => isDirectorClaim(c.id) && !mine.includes(c.id));
  return { shared, release: shared ? mine : releasedClaimIds(DIRECTOR_CLAIM, actor, true) };
}

function isDirectorClaim(id: string): boolean {
  return id === DIRECTOR_CLAIM || id.startsWith(`${DIRECTOR_CLAIM}@`);
}
