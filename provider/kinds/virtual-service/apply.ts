import { fileFact } from "../../facts/files";
import { hostClaimsFact } from "../../facts/host-claims";
import { IpvsService, IpvsTable, isFwmarkService, serviceKey } from "../../model/ipvs";
import { ipvsEntriesFact } from "../../facts/ipvs-table";
import { markRulesFact } from "../../facts/mark-rules";
import { routesFact, routeToFact } from "../../facts/routes";
import { desiredService, serviceVips } from "../../plan/desired-entries";
import { planFiles } from "../../plan/files";
import { formerFileOf, holdsService, planFormerFileRemoval } from "../../plan/former-files";
import { ClaimedVip, HostClaim } from "../../model/host-claim";
import { planServiceMarks } from "../../plan/mark-rules";
import { chooseVipDevice, serviceVipClaim, vipCidrs } from "../../plan/service-vip-claim";
import {
  Actor,
  Owner,
  claimIdsOf,
  parseOwners,
  planOwners,
  releasedClaimIds,
  withOwner,
  withoutOwner,
} from "../../plan/owners";
import { Step } from "../../plan/step";
import { planService, planServiceRemoval, sameService } from "../../plan/virtual-service";
import { renderServiceRules } from "../../render/ipvs-rules";
import {
  checkedServicePaths,
  formerPath,
  markFragmentPath,
  ownersPath,
  serviceFragmentPath,
} from "../../model/host-paths";
import {
  renderCheckedService,
  renderCheckScript,
  renderExecScript,
  renderServiceCheck,
} from "../../render/checked-services";
import { ipFamily } from "../../model/ip";
import { serviceFamily } from "../../schemas/service-identity";
import { VirtualServiceInputs } from "../../schemas/virtual-service";
import { droppedDirectors, onEveryDirector } from "../../operations/directors";
import { planBatch } from "../../plan/host-batch";
import { applyBatch, hostBatcher } from "../../operations/host-batch";
import { claimFilePaths, storedClaimIds } from "../../plan/host-claims";
import { applyHostClaims } from "../../operations/host-claims";
import {
  CheckedChange,
  checkedFileSteps,
  checkedRemoval,
  programsOf,
  refuseHandBackOnLegacyPair,
} from "../../plan/checked-services";
import {
  activateCheckedItems,
  checkedFacts,
  NOTHING_REMOVED,
  refuseCheckedChanges,
} from "../../operations/checked-services";
import { refuseForeign } from "../../operations/ownership";
import { connectionKey, ConnectionSpec } from "../../remote";
import { installIpvsBoot } from "../../plan/ipvs-boot";
import { ipvsBootFacts, removeIpvsBootIfUnused } from "../../operations/ipvs-boot";
import { Listed, listedEntry, UNREACHABLE_DIRECTOR } from "../../operations/listing";
import { readReachable } from "../../operations/unreachable";
import { HostSession } from "../../operations/session";

export function virtualServiceId(inputs: VirtualServiceInputs): string {
  return serviceKey(desiredService(inputs).id);
}

function vipClaimId(key: string): string {
  return `vs:${key}`;
}

/**
 * Creates or converges the service on every director, then holds its VIP there (when the director binds it).
 * `previous` is the state before an update: directors it had and the new inputs do not lose the service.
 */
/** Converges the service on its directors; returns those skipped as known down (see operations/unreachable.ts). */
export async function applyVirtualService(
  inputs: VirtualServiceInputs,
  actor: Actor,
  previous?: VirtualServiceInputs,
): Promise<ConnectionSpec[]> {
  // A VIP held before and not any more is released (bindVip true -> false): its claim would re-add it at boot.
  const releaseVip = previous?.bindVip === true && !binds(inputs);
  const removed = await droppedDirectors(previous?.directors ?? [], inputs.directors);
  const down = await onEveryDirector(
    inputs.directors,
    (director) => convergeServicesOnDirector(director, { inputs, releaseVip, actor }),
    true,
  );
  await Promise.all(removed.map((director) => removeServicesFromDirector(director, { inputs, actor })));
  return down;
}

const binds = (inputs: VirtualServiceInputs) => inputs.bindVip && serviceVips(inputs).length > 0;

/** One virtual service as a director holds it, with the paths of its files. */
interface ServiceEntry {
  inputs: VirtualServiceInputs;
  desired: IpvsService;
  key: string;
  fragment: string;
  /** Who owns the entry on the director (plan/owners.ts). */
  ownersFile: string;
  formerFragment: string | undefined;
  /** A fwmark service's mark rules file; undefined for a service of VIP:port. */
  markFragment: string | undefined;
  /** A checked service's keepalived files (its real servers' files are theirs); undefined when it is not checked. */
  checked: CheckedChange | undefined;
  /** An unchecked service: its keepalived files removed, if it was checked before (it is handed back to us). */
  handBack: CheckedChange | undefined;
}

function serviceEntry(inputs: VirtualServiceInputs): ServiceEntry {
  const desired = desiredService(inputs);
  const key = serviceKey(desired.id);
  return {
    inputs,
    desired,
    key,
    fragment: serviceFragmentPath(key),
    ownersFile: ownersPath(`vs:${key}`),
    formerFragment: formerPath(serviceFragmentPath, key),
    markFragment: isFwmarkService(desired.id) ? markFragmentPath(key) : undefined,
    checked: checkedServiceChange(inputs, desired, key),
    handBack: inputs.healthCheck === undefined ? checkedServiceRemoval(key) : undefined,
  };
}

/** A checked service's block, default check and (misc checks) its script. */
function checkedServiceChange(
  inputs: VirtualServiceInputs,
  desired: IpvsService,
  key: string,
): CheckedChange | undefined {
  const check = inputs.healthCheck;
  if (check === undefined) return undefined;
  const paths = checkedServicePaths(key);
  const { notifyQuorumUp: up, notifyQuorumDown: down } = inputs;
  return {
    serviceKey: key,
    files: [
      { path: paths.service, content: renderCheckedService(desired, inputs) },
      { path: paths.check, content: renderServiceCheck(check, key) },
      { path: paths.checkScript, content: renderCheckScript(check) ?? null, mode: "0700" },
      { path: paths.quorumUp, content: up ? renderExecScript(up) : null, mode: "0700" },
      { path: paths.quorumDown, content: down ? renderExecScript(down) : null, mode: "0700" },
    ],
    programs: programsOf(check.type === "misc" ? check.command : undefined, up, down),
    expected: [{ service: desired }],
  };
}

/** A checked service's own files, all removed: the service is deleted, or handed back to us. */
function checkedServiceRemoval(key: string): CheckedChange {
  const paths = checkedServicePaths(key);
  return checkedRemoval(key, [paths.service, paths.check, paths.checkScript, paths.quorumUp, paths.quorumDown]);
}

/** Table, boot replay, the entries' files and claims and (for fwmark services) mark rules: one round trip. */
async function readServiceEntries(session: HostSession, entries: ServiceEntry[], actors: Actor[]) {
  const families = new Set(entries.filter((e) => e.markFragment).map((e) => serviceFamily(e.inputs)));
  const checkedNow = entries.filter((e) => e.checked).map((e) => e.key);
  const { facts: read, file } = await session.readWithFiles(
    {
      ...(checkedNow.length > 0 ? checkedFacts(checkedNow) : {}),
      // Services only: their real servers' thresholds are not needed (`ipvsadm -Sn` alone).
      table: ipvsEntriesFact(),
      ...ipvsBootFacts(),
      ...(families.has("inet") ? { marks4: markRulesFact("inet") } : {}),
      ...(families.has("inet6") ? { marks6: markRulesFact("inet6") } : {}),
    },
    entries.flatMap((e, i) => [
      e.fragment,
      e.ownersFile,
      e.formerFragment,
      e.markFragment,
      ...(e.checked ?? e.handBack)!.files.map((f) => f.path),
      ...claimFilePaths(Object.values(claimIdsOf(vipClaimId(e.key), actors[i])).flat()),
    ]),
  );
  // An unchecked service whose checked files are still there is handed back: only then (rare) are keepalived's facts
  // read for it too, once more for every key (they are indexed by key).
  const handing = entries.filter((e) => e.handBack !== undefined && file(e.handBack.files[0].path) !== null);
  const checkedKeys = entries.filter((e) => e.checked || handing.includes(e)).map((e) => e.key);
  const keepalived = handing.length > 0 ? await session.read(checkedFacts(checkedKeys)) : undefined;
  const facts = { ...read, ...keepalived };
  return {
    facts,
    file,
    checkedKeys,
    keepalivedConf: keepalived?.keepalivedConf ?? null,
    /** The entry is unchecked and keepalived had it: its checked files are still there. */
    handingBack: (entry: ServiceEntry) => handing.includes(entry),
    former: (entry: ServiceEntry) =>
      formerFileOf(entry.formerFragment, file(entry.formerFragment), holdsService(entry.key)),
    /**
     * A fwmark service's mark rules and their boot file, converged to its match (none when it is being removed).
     * Rules of an older match are deleted; a service of VIP:port has none.
     */
    markSteps: (entry: ServiceEntry, removing: boolean): Step[] => {
      if (!entry.markFragment) return [];
      const live = (serviceFamily(entry.inputs) === "inet6" ? facts.marks6 : facts.marks4) ?? [];
      return planServiceMarks(entry.key, entry.inputs, entry.markFragment, removing, live, file(entry.markFragment));
    },
    storedClaims: storedClaimIds(
      entries.flatMap((e, i) => Object.values(claimIdsOf(vipClaimId(e.key), actors[i])).flat()),
      file,
    ),
    owners: (entry: ServiceEntry) => parseOwners(file(entry.ownersFile)),
    /** The step that records `owners` as the entry's (none when they are what the file says). */
    ownersSteps: (entry: ServiceEntry, owners: Owner[] | undefined): Step[] =>
      planOwners(entry.ownersFile, owners, file(entry.ownersFile)),
  };
}

const convergeServicesOnDirector = hostBatcher<{ inputs: VirtualServiceInputs; releaseVip: boolean; actor: Actor }>(
  async (session, items, merge) => {
    const entries = items.map((item) => serviceEntry(item.inputs));
    const actors = items.map((item) => item.actor);
    const live = await readServiceEntries(session, entries, actors);
    const refused = await refuseCheckedChanges(session, live.checkedKeys, live.facts, entries, live.file);
    const planned = planBatch(entries, (entry) => {
      const former = live.former(entry);
      const ours = live.file(entry.fragment) ?? former?.content ?? null;
      const table = live.facts.table;
      const actor = actors[entries.indexOf(entry)];
      /** Refuses an entry of another stack, or one made by hand without adopt; the steps that record its owners. */
      const claimed = (owned: string | null): Step[] => {
        const what = `virtual service ${entry.key}`;
        const foreign = table.services[entry.key] !== undefined && owned === null;
        const owners = withOwner(live.owners(entry), actor, foreign, what, session.name);
        refuseForeign(session, what, table.services[entry.key], owned, entry.inputs.adopt);
        return live.ownersSteps(entry, owners);
      };
      if (entry.checked) {
        if (refused) throw refused;
        const owners = claimed(ours ?? live.file(checkedServicePaths(entry.key).service));
        // keepalived takes over the entry (an unchecked service becoming checked keeps serving): no boot fragment.
        return [
          ...owners,
          ...checkedFileSteps(entry.checked, live.file),
          ...planFiles([{ path: entry.fragment, content: null }], { [entry.fragment]: live.file(entry.fragment) }),
          ...planFormerFileRemoval(former),
          ...live.markSteps(entry, false),
        ];
      }
      const handingBack = live.handingBack(entry);
      if (handingBack) refuseHandBackOnLegacyPair(session.name, entry.key, live.keepalivedConf);
      const owners = claimed(ours ?? (handingBack ? live.file(checkedServicePaths(entry.key).service) : null));
      return [
        ...owners,
        ...planFiles([{ path: entry.fragment, content: renderServiceRules(entry.desired) }], {
          [entry.fragment]: live.file(entry.fragment),
        }),
        ...planFormerFileRemoval(former),
        ...planService(entry.desired, table),
        // Marks once the service exists: a marked packet before it would find no service and go to the local stack.
        ...live.markSteps(entry, false),
        // keepalived forgets it at the restart below; its real servers' files go with their own update.
        ...(handingBack ? checkedFileSteps(entry.handBack!, live.file) : []),
      ];
    });
    const outcomes = await applyBatch(session, planned, merge, installIpvsBoot(live.facts));
    // A reload would make the checker delete a service handed back: it is restarted instead (it runs with
    // --dont-release-ipvs and takes the remaining services' entries over at start), the entries stay.
    const handedBack = entries.map((e, i) => live.handingBack(e) && "done" in outcomes[i]);
    const activated = entries.map((e, i) => ({ checked: handedBack[i] ? e.handBack : e.checked }));
    await activateCheckedItems(session, live.checkedKeys, live.facts, activated, outcomes, NOTHING_REMOVED, {
      restart: handedBack.some(Boolean),
    });
    // The VIPs come last, so that no packet reaches the director before the service exists.
    const claims: HostClaim[] = [];
    const released: string[] = [];
    for (const [i, entry] of entries.entries()) {
      if (!("done" in outcomes[i])) continue;
      const ids = claimIdsOf(vipClaimId(entry.key), actors[i]);
      // The claim is held under the owner's own id: a claim of an older lvs-pulumi or of the former URN gives way.
      released.push(...ids.superseded.filter((id) => live.storedClaims.has(id)));
      if (binds(entry.inputs)) {
        try {
          const vips = serviceVips(entry.inputs);
          claims.push(await vipClaim(session, entry.key, ids.own, vips, entry.inputs.vipInterface));
        } catch (error) {
          outcomes[i] = { error: error as Error };
        }
      } else if (items[i].releaseVip && live.storedClaims.has(ids.own)) {
        released.push(ids.own);
      }
    }
    if (claims.length + released.length > 0) await applyHostClaims(session, claims, released);
    return outcomes;
  },
);

const removeServicesFromDirector = hostBatcher<{ inputs: VirtualServiceInputs; actor: Actor }>(
  async (session, items, merge) => {
    const actors = items.map((item) => item.actor);
    const read = items.map(({ inputs }) => {
      const entry = serviceEntry(inputs);
      return { ...entry, checked: entry.checked && checkedServiceRemoval(entry.key) };
    });
    const live = await readServiceEntries(session, read, actors);
    const releases = read.map((entry, i) => withoutOwner(live.owners(entry), actors[i]));
    // An entry that another owner still holds keeps its files and keepalived's part: only the owners file changes.
    const entries = read.map((entry, i) => (releases[i].removeEntry ? entry : { ...entry, checked: undefined }));
    // VIPs first, then the marks: clients stop arriving before the service goes. Only the actor's own claim goes while
    // another owner is left (that owner holds the VIP under its own claim).
    const vipClaims = entries.flatMap((e, i) => {
      return releasedClaimIds(vipClaimId(e.key), actors[i], releases[i].last).filter((id) => live.storedClaims.has(id));
    });
    if (vipClaims.length > 0) await applyHostClaims(session, [], vipClaims);
    const planned = planBatch(entries, (entry) => {
      const release = releases[entries.indexOf(entry)];
      const owners = live.ownersSteps(entry, release.owners);
      if (!release.last) return owners;
      const former = live.former(entry);
      const fragment = live.file(entry.fragment);
      // An undone create that only adopted the entry: it stays live as it was found, without our files.
      if (!release.removeEntry) {
        return [
          ...owners,
          ...planFiles([{ path: entry.fragment, content: null }], { [entry.fragment]: fragment }),
          ...planFormerFileRemoval(former),
        ];
      }
      return [
        ...owners,
        ...live.markSteps(entry, true),
        ...planFiles([{ path: entry.fragment, content: null }], { [entry.fragment]: fragment }),
        ...planFormerFileRemoval(former),
        // A checked service goes with keepalived's reload (activateCheckedItems).
        ...(entry.checked ? checkedFileSteps(entry.checked, live.file) : []),
        // Only a service we created (its boot fragment is written with it) or adopted: never one that was there before.
        ...(!entry.checked && (fragment !== null || former !== undefined)
          ? planServiceRemoval(entry.desired.id, live.facts.table)
          : []),
      ];
    });
    const outcomes = await applyBatch(session, planned, merge);
    const gone = (table: IpvsTable) => entries.filter((e) => e.checked && table.services[e.key] !== undefined);
    await activateCheckedItems(session, live.checkedKeys, live.facts, entries, outcomes, {
      left: (table) => gone(table).map((e) => e.key),
      steps: (table) => gone(table).flatMap((e) => planServiceRemoval(e.desired.id, table)),
    });
    await removeIpvsBootIfUnused(session);
    return outcomes;
  },
);

async function vipClaim(
  session: HostSession,
  key: string,
  id: string,
  vips: string[],
  configured?: string,
): Promise<HostClaim> {
  const { family, cidrs } = vipCidrs(vips);
  const held: ClaimedVip[] = [];
  for (const [i, vip] of vips.entries()) {
    held.push({ dev: configured ?? (await vipDevice(session, key, vip, cidrs[i])), cidr: cidrs[i], announce: true });
  }
  return serviceVipClaim(id, family, held);
}

async function vipDevice(session: HostSession, key: string, vip: string, cidr: string): Promise<string> {
  const family = ipFamily(vip) ?? "inet";
  const facts = await session.read({ route: routeToFact(vip), defaults: routesFact(family), claims: hostClaimsFact() });
  return chooseVipDevice(session.name, vipClaimId(key), vip, cidr, facts);
}

export async function removeVirtualService(inputs: VirtualServiceInputs, actor: Actor): Promise<void> {
  await onEveryDirector(inputs.directors, (director) => removeServicesFromDirector(director, { inputs, actor }));
}

/** The service as the directors list it (one that drifted first) and the directors that lack it. */
export async function readVirtualService(inputs: VirtualServiceInputs): Promise<Listed<IpvsService>> {
  const desired = desiredService(inputs);
  const key = serviceKey(desired.id);
  const listed = await listedEntry(
    inputs.directors,
    (table) => table.services[key],
    (live) => sameService(live, desired),
  );
  if (listed.entry !== undefined || inputs.healthCheck === undefined) return listed;
  // A checked service with no real server yet may have no kernel entry: its keepalived block holds it, and it stays.
  const held = await readReachable(
    inputs.directors,
    async (director) => ({
      director: connectionKey(director),
      held:
        (await new HostSession(director).read({ block: fileFact(checkedServicePaths(key).service) })).block !== null,
    }),
    UNREACHABLE_DIRECTOR,
  );
  const answered = held.filter((h) => h !== undefined);
  if (!answered.some((h) => h.held)) return listed;
  return { entry: desired, missingFrom: answered.filter((h) => !h.held).map((h) => h.director) };
}
