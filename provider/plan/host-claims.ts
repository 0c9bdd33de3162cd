// A host's claimed setup (model/host-claim.ts): which claims a change keeps, releases and replaces, what of the host
// that needs reading, and the steps that converge it, live and at boot (operations/host-claims.ts reads and applies).
import { ClaimedVip, HostClaim, HostOriginals, mergeClaims } from "../model/host-claim";
import { command } from "../model/shell";
import {
  claimPath,
  formerPath,
  OWNED_DIRS,
  ORIGINALS_FILE,
  REALSERVER_MODULES_FILE,
  REALSERVER_RESTORE_SCRIPT,
  REALSERVER_SYSCTL_FILE,
  REALSERVER_UNIT_NAME,
  unitPath,
} from "../model/host-paths";
import { renderClaimFile, renderOriginalsFile } from "../render/claim-file";
import { renderModulesLoad } from "../render/modules-load";
import { renderRealServerRestoreScript } from "../render/real-server-restore-script";
import { renderSysctlConf } from "../render/sysctl-conf";
import { renderRealServerUnit } from "../render/units";
import { planFiles, pruneEmptyDirs } from "./files";
import { formerFileOf, holdsClaim, planFormerFileRemoval } from "./former-files";
import { planRealServerHost, RealServerHostFacts } from "./real-server-host";
import { bootSysctls } from "./sysctls";
import { OwnedFile, Step } from "./step";

/** The files that store the claims `ids` (today's name and a former one), to read with a batch's other files. */
export function claimFilePaths(ids: string[]): (string | undefined)[] {
  return ids.flatMap((id) => [claimPath(id), formerPath(claimPath, id)]);
}

/**
 * Which of `ids` the host stores, from the files claimFilePaths named: a batch asks of its own claims only, which
 * costs no program run per read (a claim file that is absent is the common case), unlike reading every claim.
 */
export function storedClaimIds(ids: string[], file: (path: string | undefined) => string | null): Set<string> {
  const stored = (id: string) =>
    file(claimPath(id)) !== null ||
    formerFileOf(formerPath(claimPath, id), file(formerPath(claimPath, id)), holdsClaim(id)) !== undefined;
  return new Set(ids.filter(stored));
}

/** A change of the stored claims, and what of the host planHostClaims needs read for it. */
export interface ClaimsChange {
  /** Every claim the host keeps: the stored ones the change does not touch, and those it adds. */
  claims: HostClaim[];
  add: HostClaim[];
  /** Stored claims that go. */
  released: HostClaim[];
  /** Stored claims that `add` replaces (same id). */
  superseded: HostClaim[];
  /** VIPs the stored claims held before the change. */
  heldVips: ClaimedVip[];
  /** Devices whose addresses, links whose state and sysctls whose values are to be read. */
  devices: string[];
  links: string[];
  sysctls: string[];
  /** Our files the change writes or removes. */
  files: string[];
  /** Claim files an earlier version wrote under a former name: the file under today's name replaces them. */
  formerClaims: { id: string; path: string }[];
}

/**
 * Adding or replacing `add` and dropping the claims with ids in `release`, on a host storing `stored`. Claims of
 * other resources are kept, so resources sharing a VIP never undo each other. Throws when the claims kept conflict.
 */
export function claimsChange(stored: HostClaim[], add: HostClaim[], release: string[]): ClaimsChange {
  const touched = new Set([...add.map((c) => c.id), ...release]);
  const claims = [...stored.filter((c) => !touched.has(c.id)), ...add];
  const released = stored.filter((c) => release.includes(c.id) && !add.some((a) => a.id === c.id));
  // Replacing a claim also releases what only its old version needed.
  const superseded = stored.filter((c) => add.some((a) => a.id === c.id));
  // What to read: the wanted state and what goes. They are merged apart: a superseded claim may want another value
  // for the same sysctl or route (expireNodestConn, directorAddress changed), which is what an update is.
  const wanted = mergeClaims(claims);
  const old = mergeClaims([...released, ...superseded]);
  return {
    claims,
    add,
    released,
    superseded,
    heldVips: mergeClaims(stored).vips,
    devices: [...new Set([...wanted.vips, ...old.vips].map((v) => v.dev))],
    links: [...new Set([...wanted.links, ...old.links])],
    sysctls: Object.keys({ ...old.sysctls, ...wanted.sysctls }),
    // The paths only: the sysctl file's content is settled once the live values are known.
    files: ownedFiles(claims, add, released, {}).map((file) => file.path),
    formerClaims: [...touched].flatMap((id) => {
      const path = formerPath(claimPath, id);
      return path === undefined ? [] : [{ id, path }];
    }),
  };
}

/** The host as read for a ClaimsChange. */
export interface HostClaimsFacts extends Omit<RealServerHostFacts, "heldVips"> {
  /** The originals file as parsed (none yet: empty). */
  originals: HostOriginals;
  /** Its content, to compare with what is written. */
  originalsFile: string | null;
  unitEnabled: boolean;
  /** Live content of the change's files, by path. */
  files: Record<string, string | null>;
  /** Live content of the claims' files under their former names, by path. */
  formerFiles: Record<string, string | null>;
}

/**
 * The steps of a change: live changes (planRealServerHost) plus the files that replay them at boot. What to restore
 * stays on the host until the restore succeeded: the originals recorded first, with the values being restored; the
 * released claims and those values go only after the commands. A failed restore is retried.
 */
export function planHostClaims(change: ClaimsChange, facts: HostClaimsFacts): Step[] {
  const { claims, add, released, superseded, formerClaims } = change;
  const plan = planRealServerHost(
    claims,
    [...released, ...superseded],
    { ...facts, heldVips: change.heldVips },
    facts.originals,
  );
  const recorded = originalsFile(plan.recorded);
  const kept = originalsFile(plan.originals);
  const releasedFiles = new Set(released.map((claim) => claimPath(claim.id)));
  const releasedIds = new Set(released.map((claim) => claim.id));
  const [releasing, staying] = partition(formerClaims, (claim) => releasedIds.has(claim.id));
  const formerRemoval = (of: typeof formerClaims) =>
    of.flatMap((claim) =>
      planFormerFileRemoval(formerFileOf(claim.path, facts.formerFiles[claim.path] ?? null, holdsClaim(claim.id))),
    );
  const unit = claims.length > 0;
  const enable = unit && !facts.unitEnabled ? [command("systemctl", "enable", "--quiet", REALSERVER_UNIT_NAME)] : [];
  const disable = !unit && facts.unitEnabled ? [command("systemctl", "disable", "--quiet", REALSERVER_UNIT_NAME)] : [];
  const [releasedClaimFiles, settledFiles] = partition(
    ownedFiles(claims, add, released, bootSysctls(mergeClaims(claims).sysctls, facts.sysctls)),
    (file) => releasedFiles.has(file.path),
  );
  return [
    ...planFiles([recorded], { [ORIGINALS_FILE]: facts.originalsFile }),
    ...disable,
    ...planFiles(settledFiles, facts.files),
    ...formerRemoval(staying),
    ...enable,
    ...plan.commands,
    ...planFiles(releasedClaimFiles, facts.files),
    ...formerRemoval(releasing),
    ...planFiles([kept], { [ORIGINALS_FILE]: recorded.content }),
    ...(claims.length === 0 && released.length > 0 ? [pruneEmptyDirs(OWNED_DIRS)] : []),
  ];
}

/** The originals file: absent when nothing is left to restore. */
function originalsFile(originals: HostOriginals): OwnedFile {
  const any =
    Object.keys(originals.sysctls).length + Object.keys(originals.routes).length + (originals.vips?.length ?? 0);
  return { path: ORIGINALS_FILE, content: any > 0 ? renderOriginalsFile(originals) : null, mode: "0600" };
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}

function ownedFiles(
  claims: HostClaim[],
  add: HostClaim[],
  released: HostClaim[],
  sysctls: Record<string, string>,
): OwnedFile[] {
  const state = mergeClaims(claims);
  const any = claims.length > 0;
  return [
    ...add.map((claim) => ({ path: claimPath(claim.id), content: renderClaimFile(claim) })),
    ...released.map((claim) => ({ path: claimPath(claim.id), content: null })),
    { path: REALSERVER_SYSCTL_FILE, content: any ? renderSysctlConf(sysctls) : null },
    {
      path: REALSERVER_MODULES_FILE,
      content: any && state.modules.length > 0 ? renderModulesLoad(state.modules) : null,
    },
    { path: REALSERVER_RESTORE_SCRIPT, content: any ? renderRealServerRestoreScript(state) : null, mode: "0755" },
    { path: unitPath(REALSERVER_UNIT_NAME), content: any ? renderRealServerUnit() : null },
  ];
}
