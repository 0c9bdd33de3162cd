import { fileFact, unitEnabledFact } from "../facts/files";
import { hostClaimsFact, hostOriginalsFact } from "../facts/host-claims";
import { interfaceAddressesFact } from "../facts/interface-addresses";
import { linkFact } from "../facts/link";
import { loadedModulesFact } from "../facts/modules";
import { routesFact } from "../facts/routes";
import { sysctlFact } from "../facts/sysctl";
import { planFiles, pruneEmptyDirs } from "../plan/files";
import { OwnedFile } from "../plan/step";
import { formerFileOf, holdsClaim, planFormerFileRemoval } from "../plan/former-files";
import { HostClaim, mergeClaims, HostOriginals } from "../model/host-claim";
import { planRealServerHost } from "../plan/real-server-host";
import { command } from "../model/shell";
import { bootSysctls } from "../plan/sysctls";
import { renderClaimFile, renderOriginalsFile } from "../render/claim-file";
import { renderModulesLoad } from "../render/modules-load";
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
import { renderRealServerRestoreScript } from "../render/real-server-restore-script";
import { renderSysctlConf } from "../render/sysctl-conf";
import { renderRealServerUnit } from "../render/units";
import { HostSession } from "./session";

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

/**
 * Converges a host's claimed setup (VIPs, sysctls, routes, modules, links) after adding or replacing `add` and
 * dropping the claims with ids in `release`: live changes plus the files that replay them at boot. Claims of other
 * resources on the host are kept, so resources sharing a VIP never undo each other.
 */
export async function applyHostClaims(session: HostSession, add: HostClaim[], release: string[]): Promise<void> {
  const stored = await session.read({ claims: hostClaimsFact(), originals: hostOriginalsFact() });
  const touched = new Set([...add.map((c) => c.id), ...release]);
  const claims = [...stored.claims.filter((c) => !touched.has(c.id)), ...add];
  const released = stored.claims.filter((c) => release.includes(c.id) && !add.some((a) => a.id === c.id));
  // Replacing a claim also releases what only its old version needed.
  const superseded = stored.claims.filter((c) => add.some((a) => a.id === c.id));
  // What to read: the wanted state and what goes. They are merged apart: a superseded claim may want another value
  // for the same sysctl or route (expireNodestConn, directorAddress changed), which is what an update is.
  const wanted = mergeClaims(claims);
  const old = mergeClaims([...released, ...superseded]);
  const all = {
    vips: [...wanted.vips, ...old.vips],
    sysctls: { ...old.sysctls, ...wanted.sysctls },
    links: [...new Set([...wanted.links, ...old.links])],
  };

  // Claim files an earlier version wrote under a former name: the file under today's name replaces them.
  const formerClaims = [...touched].flatMap((id) => {
    const path = formerPath(claimPath, id);
    return path === undefined ? [] : [{ id, path }];
  });
  const devices = [...new Set(all.vips.map((v) => v.dev))];
  // The paths to read; the sysctl file's content is settled once the live values are known.
  const files = ownedFiles(claims, add, released, {});
  const facts = await session.read({
    loadedModules: loadedModulesFact(),
    sysctls: sysctlFact(Object.keys(all.sysctls)),
    routes4: routesFact("inet"),
    routes6: routesFact("inet6"),
    unitEnabled: unitEnabledFact(REALSERVER_UNIT_NAME),
    originalsFile: fileFact(ORIGINALS_FILE),
    ...Object.fromEntries(devices.map((dev, i) => [`addresses${i}`, interfaceAddressesFact(dev)])),
    ...Object.fromEntries(all.links.map((dev, i) => [`link${i}`, linkFact(dev)])),
    ...Object.fromEntries(files.map((file, i) => [`file${i}`, fileFact(file.path)])),
    ...Object.fromEntries(formerClaims.map((claim, i) => [`former${i}`, fileFact(claim.path)])),
  });
  const at = facts as unknown as Record<string, unknown>;
  const plan = planRealServerHost(
    claims,
    [...released, ...superseded],
    {
      loadedModules: facts.loadedModules,
      sysctls: facts.sysctls,
      routes: { inet: facts.routes4, inet6: facts.routes6 },
      addresses: Object.fromEntries(
        devices.map((dev, i) => [dev, (at[`addresses${i}`] as { cidr: string }[]).map((a) => a.cidr)]),
      ),
      links: Object.fromEntries(all.links.map((dev, i) => [dev, at[`link${i}`] as { present: boolean; up: boolean }])),
      heldVips: mergeClaims(stored.claims).vips,
    },
    stored.originals,
  );
  const live = Object.fromEntries(files.map((file, i) => [file.path, at[`file${i}`] as string | null]));
  const recorded = originalsFile(plan.recorded);
  const kept = originalsFile(plan.originals);
  const releasedFiles = new Set(released.map((claim) => claimPath(claim.id)));
  const releasedIds = new Set(released.map((claim) => claim.id));
  const [releasing, staying] = partition(formerClaims, (claim) => releasedIds.has(claim.id));
  const formerRemoval = (claims: typeof formerClaims) =>
    claims.flatMap((claim) => {
      const content = at[`former${formerClaims.indexOf(claim)}`] as string | null;
      return planFormerFileRemoval(formerFileOf(claim.path, content, holdsClaim(claim.id)));
    });
  const unit = claims.length > 0;
  const enable = unit && !facts.unitEnabled ? [command("systemctl", "enable", "--quiet", REALSERVER_UNIT_NAME)] : [];
  const disable = !unit && facts.unitEnabled ? [command("systemctl", "disable", "--quiet", REALSERVER_UNIT_NAME)] : [];
  const [releasedClaimFiles, settledFiles] = partition(
    ownedFiles(claims, add, released, bootSysctls(mergeClaims(claims).sysctls, facts.sysctls)),
    (file) => releasedFiles.has(file.path),
  );
  // What to restore stays on the host until the restore succeeded: the originals recorded first, with the values
  // being restored; the released claims and those values go only after the commands. A failed restore is retried.
  await session.apply([
    ...planFiles([recorded], { [ORIGINALS_FILE]: facts.originalsFile }),
    ...disable,
    ...planFiles(settledFiles, live),
    ...formerRemoval(staying),
    ...enable,
    ...plan.commands,
    ...planFiles(releasedClaimFiles, live),
    ...formerRemoval(releasing),
    ...planFiles([kept], { [ORIGINALS_FILE]: recorded.content }),
    ...(claims.length === 0 && released.length > 0 ? [pruneEmptyDirs(OWNED_DIRS)] : []),
  ]);
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
