import { fileFact } from "../../facts/files";
import { IpvsTimeouts, ipvsTimeoutsFact } from "../../facts/ipvs-timeouts";
import { ipvsadmVersionFact } from "../../facts/ipvsadm-version";
import { kernelReleaseFact } from "../../facts/kernel";
import { availableSchedulersFact } from "../../facts/schedulers";
import { programPresentFact } from "../../facts/services";
import { DirectorState, directorState, planDirector } from "../../plan/director";
import { auditLines, Step } from "../../plan/step";
import { planFiles } from "../../plan/files";
import { planDirectorPackages } from "../../plan/packages";
import { directorClaim, directorRelease } from "../../plan/director-claim";
import { Actor } from "../../plan/owners";
import { hostClaimsFact } from "../../facts/host-claims";
import { renderTimeouts } from "../../render/ipvs-rules";
import { IPVS_TIMEOUTS_FILE } from "../../model/host-paths";
import { DirectorInputs } from "../../schemas/director";
import { applyHostClaims, hostClaimsSteps } from "../../operations/host-claims";
import { installIpvsBoot } from "../../plan/ipvs-boot";
import { ipvsBootFacts, removeIpvsBootIfUnused } from "../../operations/ipvs-boot";
import { HostSession, withHost } from "../../operations/session";

export interface DirectorFacts {
  kernelRelease: string;
  ipvsadmVersion: string;
  schedulers: string[];
}

/**
 * Prepares a director: ipvsadm, IPVS and scheduler modules, sysctls and timeouts, all persisted for boot. Each
 * Director resource on the host holds its own claim (plan/director-claim.ts).
 */
export function applyDirector(inputs: DirectorInputs, actor: Actor): Promise<DirectorFacts> {
  return withHost(inputs.connection, async (session) => {
    let facts = await readDirectorFacts(session);
    const install = planDirectorPackages(facts, inputs.installPackages, session.name);
    if (install.length > 0) {
      await session.apply(install);
      facts = await readDirectorFacts(session);
    }
    // Every scheduler the kernel has is loaded: a virtual service may switch scheduler without touching the director.
    const state = directorState(inputs, { schedulers: facts.schedulers, forwarding: [], families: [] });
    const { claim, superseded } = directorClaim(state, actor);
    await applyHostClaims(session, [claim], superseded);
    const live = await session.read({
      timeouts: ipvsTimeoutsFact(),
      timeoutsFile: fileFact(IPVS_TIMEOUTS_FILE),
      ...ipvsBootFacts(),
    });
    await session.apply([...timeoutSteps(state.timeouts, live), ...installIpvsBoot(live)]);
    return describeDirector(facts);
  });
}

/** The IPVS timeouts set live and in their boot file, where they differ from `timeouts`. */
function timeoutSteps(
  timeouts: DirectorState["timeouts"],
  live: { timeouts: IpvsTimeouts; timeoutsFile: string | null },
): Step[] {
  return [
    ...planDirector(
      { modules: [], sysctls: {}, timeouts },
      { loadedModules: [], sysctls: {}, timeouts: live.timeouts },
    ),
    ...planFiles([{ path: IPVS_TIMEOUTS_FILE, content: timeouts ? renderTimeouts(timeouts) : null }], {
      [IPVS_TIMEOUTS_FILE]: live.timeoutsFile,
    }),
  ];
}

const directorFacts = () => ({
  kernelRelease: kernelReleaseFact(),
  ipvsadm: ipvsadmVersionFact(),
  arping: programPresentFact("arping"),
  iptables: programPresentFact("iptables"),
  schedulers: availableSchedulersFact(),
});

type DirectorHostFacts = Awaited<ReturnType<typeof readDirectorFacts>>;

function readDirectorFacts(session: HostSession) {
  return session.read(directorFacts());
}

function describeDirector(facts: DirectorHostFacts): DirectorFacts {
  return {
    kernelRelease: facts.kernelRelease,
    ipvsadmVersion: facts.ipvsadm?.ipvsadm ?? "",
    schedulers: facts.schedulers,
  };
}

/**
 * The director as refresh sees it, with its `drift`: what the next apply runs to repair the host's claimed setup
 * (sysctls, modules, the VIPs its services hold, boot files) and its timeouts; none when it is whole.
 */
export function readLiveDirector(inputs: DirectorInputs): Promise<DirectorFacts & { drift: string[] }> {
  return withHost(inputs.connection, async (session) => {
    const { timeouts, timeoutsFile, ...facts } = await session.read({
      ...directorFacts(),
      timeouts: ipvsTimeoutsFact(),
      timeoutsFile: fileFact(IPVS_TIMEOUTS_FILE),
    });
    const state = directorState(inputs, { schedulers: facts.schedulers, forwarding: [], families: [] });
    const drift = [
      ...(await hostClaimsSteps(session, [], [])),
      ...timeoutSteps(state.timeouts, { timeouts, timeoutsFile }),
    ];
    return { ...describeDirector(facts), drift: drift.flatMap(auditLines) };
  });
}

/**
 * Undoes the director's own setup; the entries of virtual services and real servers are theirs to remove. While
 * another Director resource holds the host (the new name of a rename), only `actor`'s claim goes.
 */
export function removeDirector(inputs: DirectorInputs, actor: Actor): Promise<void> {
  return withHost(inputs.connection, async (session) => {
    const { claims, timeoutsFile } = await session.read({
      claims: hostClaimsFact(),
      timeoutsFile: fileFact(IPVS_TIMEOUTS_FILE),
    });
    const { shared, release } = directorRelease(claims, actor);
    if (shared) {
      await applyHostClaims(session, [], release);
      return;
    }
    await session.apply(
      planFiles([{ path: IPVS_TIMEOUTS_FILE, content: null }], { [IPVS_TIMEOUTS_FILE]: timeoutsFile }),
    );
    await removeIpvsBootIfUnused(session);
    // Last: releasing the final claim also removes our emptied folders.
    await applyHostClaims(session, [], release);
  });
}
