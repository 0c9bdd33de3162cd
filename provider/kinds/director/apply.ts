import { DirectorTable, directorTableFact } from "../../facts/director-table";
import { fileFact } from "../../facts/files";
import { ipvsTimeoutsFact } from "../../facts/ipvs-timeouts";
import { ipvsadmVersionFact } from "../../facts/ipvsadm-version";
import { kernelReleaseFact } from "../../facts/kernel";
import { availableSchedulersFact } from "../../facts/schedulers";
import { programPresentFact } from "../../facts/services";
import { directorState, planDirector } from "../../plan/director";
import { planFiles } from "../../plan/files";
import { installPackage, PackageName } from "../../plan/packages";
import { HostClaim } from "../../model/host-claim";
import { Actor, claimIdsOf, releasedClaimIds } from "../../plan/owners";
import { hostClaimsFact } from "../../facts/host-claims";
import { renderTimeouts } from "../../render/ipvs-rules";
import { IPVS_TIMEOUTS_FILE } from "../../model/host-paths";
import { DirectorInputs } from "../../schemas/director";
import { applyHostClaims } from "../../operations/host-claims";
import { installIpvsBoot, ipvsBootFacts, removeIpvsBootIfUnused } from "../../operations/ipvs-boot";
import { HostSession, withHost } from "../../operations/session";

export interface DirectorFacts {
  kernelRelease: string;
  ipvsadmVersion: string;
  schedulers: string[];
  /** The live IPVS table (every entry, ours or not) as of this apply or read. */
  table: DirectorTable;
}

const DIRECTOR_CLAIM = "director";

/**
 * Prepares a director: ipvsadm, IPVS and scheduler modules, sysctls and timeouts, all persisted for boot. Each
 * Director resource on the host holds its own claim (plan/owners.ts): a renamed resource, created before its old
 * name is deleted, keeps the setup in place.
 */
export function applyDirector(inputs: DirectorInputs, actor: Actor): Promise<DirectorFacts> {
  return withHost(inputs.connection, async (session) => {
    let facts = await readDirectorFacts(session);
    const missing = missingPrograms(facts);
    const required = missing.filter((m) => m.required);
    if (required.length > 0 && !inputs.installPackages) {
      const names = required.map((m) => m.program).join(" and ");
      throw new Error(`host ${session.name}: ${names} not installed; install or set installPackages: true`);
    }
    if (missing.length > 0 && inputs.installPackages) {
      await session.apply(missing.map((m) => installPackage(m.from)));
      facts = await readDirectorFacts(session);
    }
    // Every scheduler the kernel has is loaded: a virtual service may switch scheduler without touching the director.
    const state = directorState(inputs, { schedulers: facts.schedulers, forwarding: [], families: [] });
    const { own, superseded } = claimIdsOf(DIRECTOR_CLAIM, actor);
    const claim: HostClaim = {
      id: own,
      vips: [],
      sysctls: state.sysctls,
      routes: [],
      modules: state.modules,
      links: [],
    };
    await applyHostClaims(session, [claim], superseded);
    const live = await session.read({
      timeouts: ipvsTimeoutsFact(),
      timeoutsFile: fileFact(IPVS_TIMEOUTS_FILE),
      ...ipvsBootFacts(),
    });
    await session.apply([
      ...planDirector(
        { modules: [], sysctls: {}, timeouts: state.timeouts },
        { loadedModules: [], sysctls: {}, timeouts: live.timeouts },
      ),
      ...planFiles([{ path: IPVS_TIMEOUTS_FILE, content: state.timeouts ? renderTimeouts(state.timeouts) : null }], {
        [IPVS_TIMEOUTS_FILE]: live.timeoutsFile,
      }),
      ...installIpvsBoot(live),
    ]);
    return describeDirector(facts, (await session.read({ table: directorTableFact() })).table);
  });
}

const directorFacts = () => ({
  kernelRelease: kernelReleaseFact(),
  ipvsadm: ipvsadmVersionFact(),
  arping: programPresentFact("arping"),
  iptables: programPresentFact("iptables"),
  schedulers: availableSchedulersFact(),
});

type DirectorHostFacts = Awaited<ReturnType<typeof readDirectorFacts>>;

/**
 * ipvsadm runs the table; arping announces a VIP bound on the director (see plan/announce.ts). iptables is needed
 * only by fullnat's SNAT and fwmark matches, so its absence is no error here (those applies name the host and the
 * failed command), but installPackages installs it with the rest.
 */
function missingPrograms(facts: DirectorHostFacts): { program: string; from: PackageName; required: boolean }[] {
  return [
    ...(facts.ipvsadm === undefined ? [{ program: "ipvsadm", from: "ipvsadm", required: true }] : []),
    ...(facts.arping ? [] : [{ program: "arping", from: { apt: "iputils-arping", rpm: "iputils" }, required: true }]),
    ...(facts.iptables ? [] : [{ program: "iptables", from: "iptables", required: false }]),
  ];
}

function readDirectorFacts(session: HostSession) {
  return session.read(directorFacts());
}

function describeDirector(facts: DirectorHostFacts, table: DirectorTable): DirectorFacts {
  return {
    kernelRelease: facts.kernelRelease,
    ipvsadmVersion: facts.ipvsadm?.ipvsadm ?? "",
    schedulers: facts.schedulers,
    table,
  };
}

export function readDirector(inputs: DirectorInputs): Promise<DirectorFacts> {
  return withHost(inputs.connection, async (session) => {
    const { table, ...facts } = await session.read({ ...directorFacts(), table: directorTableFact() });
    return describeDirector(facts, table);
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
    const mine = releasedClaimIds(DIRECTOR_CLAIM, actor, false);
    const others = claims.filter((c) => isDirectorClaim(c.id) && !mine.includes(c.id));
    if (others.length > 0) {
      // An older lvs-pulumi's shared claim stays with the owners left.
      await applyHostClaims(session, [], mine);
      return;
    }
    await session.apply(
      planFiles([{ path: IPVS_TIMEOUTS_FILE, content: null }], { [IPVS_TIMEOUTS_FILE]: timeoutsFile }),
    );
    await removeIpvsBootIfUnused(session);
    // Last: releasing the final claim also removes our emptied folders.
    await applyHostClaims(session, [], releasedClaimIds(DIRECTOR_CLAIM, actor, true));
  });
}

function isDirectorClaim(id: string): boolean {
  return id === DIRECTOR_CLAIM || id.startsWith(`${DIRECTOR_CLAIM}@`);
}
