import { markedPair } from "../render/keepalivedConf";
import {
  CHECKED_ONLY_MARKER,
  renderCheckedEnable,
  renderCheckedInclude,
  renderCheckedOnlyConf,
} from "../render/checkedServices";
import {
  checkedServicePaths,
  KEEPALIVED_CHECKED_DIR,
  KEEPALIVED_CHECKED_STAGE,
  KEEPALIVED_CONF,
} from "../render/paths";
import { OwnedFile, planFiles } from "./files";
import { planKeepalivedUnit, planKeepalivedUnitRemoval } from "./keepalivedUnit";
import { Step, stepRun } from "./script";
import { command, quote } from "./shell";

/** keepalived as a director runs it for checked services. */
export interface CheckedKeepalivedFacts {
  conf: string | null;
  dropIn: string | null;
  enabled: boolean;
  active: boolean;
  enabledByUs: boolean;
  installed: boolean;
}

/** Why checked services cannot go on this director's keepalived, or undefined when they can. */
export function checkedConfConflict(conf: string | null): string | undefined {
  if (conf === null || conf.includes(CHECKED_ONLY_MARKER)) return undefined;
  const pair = markedPair(conf);
  if (pair === undefined) return `${KEEPALIVED_CONF} exists and was not written by lvs-pulumi; move it away first`;
  // An HA pair's configuration includes the checked services since they exist; one written before does not.
  if (!conf.includes(renderCheckedInclude(KEEPALIVED_CHECKED_DIR))) {
    return `${KEEPALIVED_CONF} of HA pair ${pair} was written by an older lvs-pulumi and does not include checked services: update the HAPair first`;
  }
  return undefined;
}

/**
 * The enable files of `services` (keys) once `changes` land: a service is included only while its folder holds real
 * servers, since keepalived drops (and `keepalived -t` refuses) a virtual_server without any.
 */
export function enableFiles(
  services: string[],
  listing: (serviceKey: string) => string[],
  changes: OwnedFile[],
  root = KEEPALIVED_CHECKED_DIR,
): OwnedFile[] {
  return services.map((key) => {
    const paths = checkedServicePaths(key, root);
    const present = new Set(listing(key).map((name) => `${paths.dir}/${name}`));
    for (const change of changes.map((c) => ({ ...c, path: rebase(c.path, root) }))) {
      if (change.content === null) present.delete(change.path);
      else present.add(change.path);
    }
    const hasService = present.has(paths.service);
    const hasRealServer = [...present].some((path) => /\/rs-[^/]*\.conf$/.test(path));
    return { path: paths.enable, content: hasService && hasRealServer ? renderCheckedEnable(key) : null };
  });
}

function rebase(path: string, root: string): string {
  return path.startsWith(`${KEEPALIVED_CHECKED_DIR}/`) ? `${root}${path.slice(KEEPALIVED_CHECKED_DIR.length)}` : path;
}

/**
 * `keepalived -t` on a copy of the checked folder with `changes` applied (their includes are relative, so the copy
 * checks as it is), and every misc check's program tested to be executable: a check keepalived refuses, or one that
 * could never run, fails this step with the reason, before anything keepalived reads is touched.
 */
export function checkedServicesCheck(
  changes: OwnedFile[],
  services: string[],
  listing: (key: string) => string[],
  programs: string[],
): Step {
  const stage = KEEPALIVED_CHECKED_STAGE;
  const root = `${stage}/checked`;
  const staged = changes.map((change) => ({ ...change, path: rebase(change.path, root) }));
  const enable = enableFiles(services, listing, changes, root);
  const clean = command("rm", "-rf", stage);
  const conf = `${stage}/keepalived.conf`;
  const confText = renderCheckedOnlyConf(root);
  const fail = (message: string) => `{ ${clean}; echo ${quote(message)} >&2; exit 1; }`;
  return {
    run: [
      clean,
      command("mkdir", "-p", "-m", "0700", root),
      `if [ -d ${quote(KEEPALIVED_CHECKED_DIR)} ]; then ${command("cp", "-a", `${KEEPALIVED_CHECKED_DIR}/.`, root)}; fi`,
      ...planFiles([...staged, ...enable, { path: conf, content: confText }], {}).map(stepRun),
      ...programs.map(
        (program) =>
          `[ -f ${quote(program)} ] && [ -x ${quote(program)} ] || ${fail(`misc health check: ${program} is not an executable file on this director`)}`,
      ),
      `if ! ${command("keepalived", "-t", "-f", conf)}; then ${clean}; exit 1; fi`,
      clean,
    ].join("\n"),
    audit: `keepalived -t on the checked services with this change (staged in ${stage} and removed)`,
  };
}

/**
 * keepalived.conf (ours, when no HA pair has it), the boot ordering drop-in, and keepalived enabled and running the
 * new files: started when it is not, reloaded when it is (a reload diffs the old and new configuration, so entries of
 * services that stay are kept). keepalived runs only while a service is enabled: started without any, it never tells
 * systemd it is ready.
 */
export function planCheckedKeepalived(live: CheckedKeepalivedFacts, changed: boolean): Step[] {
  const confFiles =
    live.conf === null || live.conf.includes(CHECKED_ONLY_MARKER)
      ? planFiles([{ path: KEEPALIVED_CONF, content: renderCheckedOnlyConf(KEEPALIVED_CHECKED_DIR), mode: "0600" }], {
          [KEEPALIVED_CONF]: live.conf,
        })
      : [];
  return [...confFiles, ...planKeepalivedUnit(live, true, changed || confFiles.length > 0)];
}

/**
 * The last checked service gone from a director without an HA pair: keepalived stopped and everything we put there
 * for it removed (the services themselves went with the reload before).
 */
export function planCheckedKeepalivedRemoval(live: CheckedKeepalivedFacts): Step[] {
  if (live.conf === null || !live.conf.includes(CHECKED_ONLY_MARKER)) return [];
  return planKeepalivedUnitRemoval(live);
}
