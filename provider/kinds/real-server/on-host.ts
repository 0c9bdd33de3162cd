// The real server's own setup (VIP on lo or tunl0, ARP sysctls, rp_filter, NAT return route) as a claim on its host,
// batched per host: the real servers of many services on one machine arrive together and share one claims write.
import { Fact } from "../../facts/fact";
import { routesFact } from "../../facts/routes";
import { HostClaim } from "../../model/host-claim";
import { Actor, claimIdsOf, releasedClaimIds } from "../../plan/owners";
import { chooseEgressDevice, realServerClaim } from "../../plan/real-server-claim";
import { command } from "../../model/shell";
import { ipFamily } from "../../model/ip";
import { RealServerInputs } from "../../schemas/real-server";
import { applyHostClaims, sharedClaimsDrift } from "../../operations/host-claims";
import { auditLines } from "../../plan/step";
import { AGAIN, DONE, firstOfEachKey, ItemOutcome } from "../../plan/host-batch";
import { hostBatcher } from "../../operations/host-batch";
import { HostSession } from "../../operations/session";

export const hostClaimId = (key: string) => `rs:${key}`;

/**
 * `claim`: the real server `inputs` of destination `key` is set up on the host; `release`: it no longer is. Each owner
 * holds its own claim (plan/owners.ts): a renamed resource's new claim keeps the setup when the old one is released.
 */
type HostChange = { claim: RealServerInputs; key: string; actor: Actor } | { release: string; actor: Actor };

const changeId = (change: HostChange) => hostClaimId("claim" in change ? change.key : change.release);

const onRealServerHost = hostBatcher<HostChange>(async (session, changes) => {
  const first = firstOfEachKey(changes.map(changeId));
  const outcomes: ItemOutcome[] = [];
  const add: HostClaim[] = [];
  const release: string[] = [];
  for (const [i, change] of changes.entries()) {
    if (!first[i]) outcomes.push(AGAIN);
    else if ("release" in change) {
      // An older lvs-pulumi's claim (no owner in its id) may be another owner's too: it goes once no owner's is left.
      release.push(...releasedClaimIds(changeId(change), change.actor, true));
      outcomes.push(DONE);
    } else {
      try {
        const { own, superseded } = claimIdsOf(changeId(change), change.actor);
        add.push(realServerClaim(own, change.claim, await egressDevice(session, change.claim.address)));
        release.push(...superseded);
        outcomes.push(DONE);
      } catch (error) {
        outcomes.push({ error: error as Error });
      }
    }
  }
  await applyHostClaims(session, add, release);
  return outcomes;
});

export const claimOnRealServerHost = (
  host: NonNullable<RealServerInputs["host"]>,
  inputs: RealServerInputs,
  key: string,
  actor: Actor,
) => onRealServerHost(host, { claim: inputs, key, actor });

export const releaseOnRealServerHost = (host: NonNullable<RealServerInputs["host"]>, key: string, actor: Actor) =>
  onRealServerHost(host, { release: key, actor });

// The interface holding the RIP is where ARP requests for the VIP arrive.
async function egressDevice(session: HostSession, rip: string): Promise<string> {
  const family = ipFamily(rip) ?? "inet";
  const facts = await session.read({ holder: ripHolderFact(rip), routes: routesFact(family) });
  return chooseEgressDevice(session.name, rip, facts.holder, facts.routes);
}

function ripHolderFact(rip: string): Fact<string | undefined> {
  return {
    command: command("ip", "-j", "addr", "show", "to", rip),
    parse: (stdout) => (stdout.trim() === "" ? undefined : (JSON.parse(stdout) as { ifname?: string }[])[0]?.ifname),
  };
}

/**
 * What the real server's host lacks of the setup claimed on it (a VIP taken off lo, an ARP sysctl reset, the NAT
 * return route deleted, a boot file changed): the commands the next apply runs to repair it, none when it is whole.
 * The host's claims are read, not this real server's alone: they are converged together (and read once for the real
 * servers of a host that refresh together).
 */
export async function realServerHostDrift(host: NonNullable<RealServerInputs["host"]>): Promise<string[]> {
  return (await sharedClaimsDrift(host)).flatMap(auditLines);
}
