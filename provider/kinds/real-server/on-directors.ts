// A real server's entries on a director (destination, NAT forwarding claim, fullnat SNAT rule, boot fragments),
// written and removed in per-director batches: the real servers Pulumi creates together share one lock, one read
// and one script on each director (host-batch.ts).
import { destinationKey, IpvsDestination, IpvsTable, serviceKey } from "../../model/ipvs";
import { checkerStateFact } from "../../facts/checker-state";
import { ipvsEntriesFact, ipvsThresholdsFact, withThresholds } from "../../facts/ipvs-table";
import { snatRulesFact } from "../../facts/snat-rules";
import { SnatRule } from "../../model/snat-rule";
import { desiredDestination, desiredSnatRule } from "../../plan/real-server";
import { planFiles, pruneBatchDirs } from "../../plan/files";
import { formerFileOf, holdsDestination, holdsSnatRule, planFormerFileRemoval } from "../../plan/former-files";
import { HostClaim } from "../../model/host-claim";
import {
  Actor,
  Owner,
  claimIdsOf,
  parseOwners,
  planOwners,
  Release,
  releasedClaimIds,
  withOwner,
  withoutOwner,
} from "../../plan/owners";
import { Step } from "../../plan/step";
import { planCheckedRepair } from "../../plan/checked-real-server";
import { realServerDirectorClaim } from "../../plan/real-server-claim";
import { planDestination, planDestinationRemoval } from "../../plan/real-server";
import { planSnatRule, planSnatRuleRemoval } from "../../plan/snat";
import { renderDestinationRules } from "../../render/ipvs-rules";
import { renderSnatRule } from "../../render/snat-rules";
import {
  checkedRealServerPaths,
  checkedServicePaths,
  destinationFragmentPath,
  formerPath,
  KEEPALIVED_CHECKED_DIR,
  ownersPath,
  snatFragmentPath,
} from "../../model/host-paths";
import { renderCheckedRealServer, renderCheckScript, renderExecScript } from "../../render/checked-services";
import { ipFamily } from "../../model/ip";
import { RealServerInputs } from "../../schemas/real-server";
import { claimFilePaths, storedClaimIds } from "../../plan/host-claims";
import { applyHostClaims } from "../../operations/host-claims";
import { planBatch } from "../../plan/host-batch";
import { applyBatch, hostBatcher } from "../../operations/host-batch";
import { CheckedChange, checkedFileSteps, checkedRemoval, programsOf } from "../../plan/checked-services";
import {
  activateCheckedItems,
  checkedFacts,
  NOTHING_REMOVED,
  refuseCheckedChanges,
} from "../../operations/checked-services";
import { installIpvsBoot } from "../../plan/ipvs-boot";
import { ipvsBootFacts, removeIpvsBootIfUnused } from "../../operations/ipvs-boot";
import { refuseForeign } from "../../operations/ownership";
import { HostSession } from "../../operations/session";

/** One real server as a director holds it, with the paths of its files (today's names and the former ones). */
interface DirectorEntry {
  inputs: RealServerInputs;
  key: string;
  dest: IpvsDestination;
  snat: SnatRule | undefined;
  fragment: string;
  /** Who owns the entry on the director (plan/owners.ts). */
  ownersFile: string;
  snatFragment: string;
  formerFragment: string | undefined;
  formerSnatFragment: string | undefined;
  /** The real server of a checked service as keepalived's file; undefined when the service is not checked. */
  checked: CheckedChange | undefined;
  /** Unchecked: its keepalived files removed, if its service was checked before (handed back to us). */
  handBack: CheckedChange | undefined;
  /** The checked service's `virtual_server` file: absent once the service is handed back. */
  checkedService: string;
}

function directorEntry(inputs: RealServerInputs, removing = false): DirectorEntry {
  const dest = desiredDestination(inputs);
  const key = destinationKey(dest.service, dest.address, dest.port);
  return {
    inputs,
    key,
    dest,
    snat: desiredSnatRule(inputs),
    fragment: destinationFragmentPath(key),
    ownersFile: realServerOwnersPath(key),
    snatFragment: snatFragmentPath(key),
    formerFragment: formerPath(destinationFragmentPath, key),
    formerSnatFragment: formerPath(snatFragmentPath, key),
    checked: removing
      ? inputs.serviceChecked
        ? realServerRemoval(dest, key)
        : undefined
      : checkedRealServerChange(inputs, dest, key),
    handBack: inputs.serviceChecked ? undefined : realServerRemoval(dest, key),
    checkedService: checkedServicePaths(serviceKey(dest.service)).service,
  };
}

/** A checked service's real server: its `real_server` block and (own misc check) script. */
function checkedRealServerChange(
  inputs: RealServerInputs,
  dest: IpvsDestination,
  key: string,
): CheckedChange | undefined {
  if (!inputs.serviceChecked) return undefined;
  const paths = checkedRealServerPaths(serviceKey(dest.service), key);
  const { healthCheck: own, notifyUp: up, notifyDown: down } = inputs;
  const notify = { up: up && paths.notifyUp, down: down && paths.notifyDown };
  const block = renderCheckedRealServer(dest, own && { check: own, script: paths.checkScript }, notify);
  return {
    serviceKey: serviceKey(dest.service),
    files: [
      { path: paths.block, content: block },
      { path: paths.checkScript, content: (own && renderCheckScript(own)) ?? null, mode: "0700" },
      { path: paths.notifyUp, content: up ? renderExecScript(up) : null, mode: "0700" },
      { path: paths.notifyDown, content: down ? renderExecScript(down) : null, mode: "0700" },
    ],
    programs: programsOf(own?.type === "misc" ? own.command : undefined, up, down),
    expected: [{ destination: dest }],
  };
}

/** A checked service's real server's files, all removed: it is deleted, or its service is handed back to us. */
function realServerRemoval(dest: IpvsDestination, key: string): CheckedChange {
  const paths = checkedRealServerPaths(serviceKey(dest.service), key);
  return checkedRemoval(serviceKey(dest.service), [paths.block, paths.checkScript, paths.notifyUp, paths.notifyDown]);
}

/** The owners file of a real server's entry on a director (drain reads it too). */
export const realServerOwnersPath = (key: string) => ownersPath(`rs:${key}`);

const directorClaimId = (key: string) => `rs-director:${key}`;

/**
 * The director's table (without thresholds: see convergeRealServersOnDirector), boot replay, files, SNAT rules (when an entry
 * has one) and claims: one round trip.
 */
async function readRealServerEntries(session: HostSession, entries: DirectorEntry[], actors: Actor[]) {
  const snat = entries.some((e) => e.snat !== undefined);
  const checkedKeys = [...new Set(entries.flatMap((e) => (e.checked ? [e.checked.serviceKey] : [])))];
  const { facts, file } = await session.readWithFiles(
    {
      ...(checkedKeys.length > 0 ? { ...checkedFacts(checkedKeys), checker: checkerStateFact() } : {}),
      table: ipvsEntriesFact(),
      ...(snat ? { snat4: snatRulesFact("inet"), snat6: snatRulesFact("inet6") } : {}),
      ...ipvsBootFacts(),
    },
    entries.flatMap((e, i) => [
      e.fragment,
      e.ownersFile,
      e.snatFragment,
      e.formerFragment,
      e.formerSnatFragment,
      e.checkedService,
      ...(e.checked ?? e.handBack)!.files.map((f) => f.path),
      ...claimFilePaths(Object.values(claimIdsOf(directorClaimId(e.key), actors[i])).flat()),
    ]),
  );
  const snatRules = (rule: SnatRule) => (ipFamily(rule.rip) === "inet6" ? facts.snat6 : facts.snat4) ?? [];
  const formerOf = (entry: DirectorEntry) => ({
    fragment: formerFileOf(entry.formerFragment, file(entry.formerFragment), holdsDestination(entry.key)),
    snat: entry.snat
      ? formerFileOf(entry.formerSnatFragment, file(entry.formerSnatFragment), holdsSnatRule(entry.snat))
      : undefined,
  });
  /** Steps that remove an entry's keepalived files left from a checked service, and their folders once empty. */
  const leftoverSteps = (change: CheckedChange | undefined): Step[] => {
    const steps = change ? checkedFileSteps(change, file) : [];
    if (steps.length === 0) return [];
    return [...steps, pruneBatchDirs([checkedServicePaths(change!.serviceKey).dir, KEEPALIVED_CHECKED_DIR])];
  };
  return {
    facts,
    file,
    formerOf,
    snatRules,
    checkedKeys,
    leftoverSteps,
    /** A checked entry whose service was handed back: keepalived no longer has it, the entry is ours to delete. */
    handedBack: (entry: DirectorEntry) => entry.checked !== undefined && file(entry.checkedService) === null,
    storedClaims: storedClaimIds(
      entries.flatMap((e, i) => Object.values(claimIdsOf(directorClaimId(e.key), actors[i])).flat()),
      file,
    ),
    owners: (entry: DirectorEntry) => parseOwners(file(entry.ownersFile)),
    /** The step that records `owners` as the entry's (none when they are what the file says). */
    ownersSteps: (entry: DirectorEntry, owners: Owner[] | undefined): Step[] =>
      planOwners(entry.ownersFile, owners, file(entry.ownersFile)),
  };
}

/** Writes a real server's entry on a director, with the real servers that arrive with it (see host-batch.ts). */
export const convergeRealServersOnDirector = hostBatcher<{ inputs: RealServerInputs; actor: Actor }>(
  async (session, items, merge) => {
    const entries = items.map(({ inputs }) => directorEntry(inputs));
    const actors = items.map((item) => item.actor);
    const live = await readRealServerEntries(session, entries, actors);
    // Real servers that exist are compared with what is wanted, thresholds included: those take a second listing.
    if (entries.some((e) => live.facts.table.destinations[e.key])) {
      withThresholds(live.facts.table, (await session.read({ thresholds: ipvsThresholdsFact() })).thresholds);
    }
    const refused = await refuseCheckedChanges(session, live.checkedKeys, live.facts, entries, live.file);
    const claims: HostClaim[] = [];
    const released: string[] = [];
    const planned = planBatch(entries, (entry) => {
      const former = live.formerOf(entry);
      const table = live.facts.table;
      if (entry.checked && refused) throw refused;
      if (entry.handBack && live.file(entry.checkedService) !== null) {
        throw new Error(
          `host ${session.name}: real server ${entry.key}: its virtual service is still checked on this director ` +
            `(keepalived owns the entry): apply the service first; nothing was changed`,
        );
      }
      const ours =
        live.file(entry.fragment) ??
        former.fragment?.content ??
        live.file((entry.checked ?? entry.handBack)!.files[0].path);
      const what = `real server ${entry.key}`;
      const foreign = table.destinations[entry.key] !== undefined && ours === null;
      const actor = actors[entries.indexOf(entry)];
      const owners = withOwner(live.owners(entry), actor, foreign, what, session.name);
      refuseForeign(session, what, table.destinations[entry.key], ours, entry.inputs.adopt);
      // The claim is held under the owner's own id: a claim of an older lvs-pulumi or of the former URN gives way.
      const ids = claimIdsOf(directorClaimId(entry.key), actor);
      released.push(...ids.superseded.filter((id) => live.storedClaims.has(id)));
      const claim = realServerDirectorClaim(ids.own, entry.inputs);
      if (claim) claims.push(claim);
      else if (live.storedClaims.has(ids.own)) released.push(ids.own);
      const { snat } = entry;
      return [
        ...live.ownersSteps(entry, owners),
        ...planFiles(
          [
            // keepalived adds (or takes over) a checked service's real server: no boot fragment of ours.
            { path: entry.fragment, content: entry.checked ? null : renderDestinationRules(entry.dest) },
            ...(snat ? [{ path: entry.snatFragment, content: renderSnatRule(snat) }] : []),
          ],
          { [entry.fragment]: live.file(entry.fragment), [entry.snatFragment]: live.file(entry.snatFragment) },
        ),
        ...planFormerFileRemoval(former.fragment),
        ...planFormerFileRemoval(former.snat),
        // SNAT before the destination: the first packet forwarded must already leave with the DIP.
        ...(snat ? planSnatRule(snat, live.snatRules(snat)) : []),
        ...(entry.checked
          ? [...checkedFileSteps(entry.checked, live.file), ...repairSteps(entry, live)]
          : [...planDestination(entry.dest, table), ...live.leftoverSteps(entry.handBack)]),
      ];
    });
    // Forwarding (NAT) is on before a destination that needs it is added.
    if (claims.length + released.length > 0) await applyHostClaims(session, claims, released);
    const outcomes = await applyBatch(session, planned, merge, installIpvsBoot(live.facts));
    await activateCheckedItems(session, live.checkedKeys, live.facts, entries, outcomes, NOTHING_REMOVED);
    return outcomes;
  },
);

/**
 * A checked real server whose file stays as it is: keepalived's entry repaired when it was edited by hand (a new or
 * changed file is keepalived's to apply on reload).
 */
function repairSteps(entry: DirectorEntry, live: Awaited<ReturnType<typeof readRealServerEntries>>): Step[] {
  const block = entry.checked?.files[0];
  if (!block || live.file(block.path) !== block.content) return [];
  return planCheckedRepair(entry.dest, live.facts.checker?.[entry.key], live.facts.table);
}

/** Removes a real server's entry, files, SNAT rule and claim from a director, batched like convergeRealServersOnDirector. */
export const removeRealServersFromDirector = hostBatcher<{ inputs: RealServerInputs; actor: Actor }>(
  async (session, items, merge) => {
    const actors = items.map((item) => item.actor);
    const read = items.map(({ inputs }) => directorEntry(inputs, true));
    const live = await readRealServerEntries(session, read, actors);
    const releases: Release[] = read.map((entry, i) => withoutOwner(live.owners(entry), actors[i]));
    // An entry that another owner still holds keeps its files and keepalived's part: only the owners file changes.
    const entries = read.map((entry, i) => (releases[i].removeEntry ? entry : { ...entry, checked: undefined }));
    const planned = planBatch(entries, (entry) => {
      const release = releases[entries.indexOf(entry)];
      const owners = live.ownersSteps(entry, release.owners);
      if (!release.last) return owners;
      const former = live.formerOf(entry);
      const fragment = live.file(entry.fragment);
      const { snat, dest } = entry;
      const keepalivedFiles = entry.checked ?? entry.handBack;
      // An undone create that only adopted the entry: it stays live as it was found, without our files.
      if (!release.removeEntry) {
        return [
          ...owners,
          ...planFiles([{ path: entry.fragment, content: null }], { [entry.fragment]: fragment }),
          ...planFormerFileRemoval(former.fragment),
        ];
      }
      return [
        ...owners,
        ...planFiles([{ path: entry.fragment, content: null }], { [entry.fragment]: fragment }),
        ...planFormerFileRemoval(former.fragment),
        // Only an entry we created or adopted (it has our boot fragment or keepalived's file): never one that was there
        // before. A checked service's real server goes with keepalived's reload, unless the service was handed back.
        ...(entry.checked && !live.handedBack(entry)
          ? checkedFileSteps(entry.checked, live.file)
          : fragment !== null || former.fragment !== undefined || live.file(keepalivedFiles?.files[0].path) !== null
            ? [
                ...planDestinationRemoval(dest.service, dest.address, dest.port, live.facts.table),
                ...live.leftoverSteps(keepalivedFiles),
              ]
            : []),
        ...(snat
          ? [
              ...planFiles([{ path: entry.snatFragment, content: null }], {
                [entry.snatFragment]: live.file(entry.snatFragment),
              }),
              ...planFormerFileRemoval(former.snat),
              ...planSnatRuleRemoval(snat, live.snatRules(snat)),
            ]
          : []),
      ];
    });
    const outcomes = await applyBatch(session, planned, merge);
    const reloaded = entries.map((e) => (live.handedBack(e) ? { ...e, checked: undefined } : e));
    const gone = (table: IpvsTable) => reloaded.filter((e) => e.checked && table.destinations[e.key] !== undefined);
    await activateCheckedItems(session, live.checkedKeys, live.facts, reloaded, outcomes, {
      left: (table) => gone(table).map((e) => e.key),
      steps: (table) =>
        gone(table).flatMap(({ dest }) => planDestinationRemoval(dest.service, dest.address, dest.port, table)),
    });
    // The actor's own claims; an older lvs-pulumi's claim only with the last owner (the others hold theirs).
    const released = entries.flatMap((e, i) => {
      if (!("done" in outcomes[i])) return [];
      return releasedClaimIds(directorClaimId(e.key), actors[i], releases[i].last).filter((id) =>
        live.storedClaims.has(id),
      );
    });
    if (released.length > 0) await applyHostClaims(session, [], released);
    await removeIpvsBootIfUnused(session);
    return outcomes;
  },
);
