import {
  LEGACY_CHECKED_ONLY_MARKER,
  renderCheckedEnable,
  renderCheckedInclude,
  renderCheckerConf,
} from "../render/checked-services";
import { checkedServicePaths, KEEPALIVED_CHECKED_DIR, KEEPALIVED_CHECKED_STAGE } from "../model/host-paths";
import { CheckerFacts, planChecker, planCheckerRemoval } from "./checker";
import { KeepalivedEntry } from "./checked-read-back";
import { planFiles, pruneBatchDirs } from "./files";
import { OwnedFile, Step, stepRun } from "./step";
import { KeepalivedUnitFacts, planKeepalivedUnitRemoval } from "./keepalived-unit";
import { command, quote } from "../model/shell";
import { markedPair } from "../render/keepalived-conf";

/** A director's keepalived units: the checker instance, and the distribution's unit (its keepalived.conf). */
export interface CheckedKeepalivedFacts {
  checker: CheckerFacts;
  keepalived: KeepalivedUnitFacts;
  installed: boolean;
}

/** A keepalived.conf an older lvs-pulumi wrote for checked services alone (no HA pair): the checker replaces it. */
export function isLegacyCheckedOnlyConf(conf: string | null): boolean {
  return conf !== null && conf.includes(LEGACY_CHECKED_ONLY_MARKER);
}

/**
 * A keepalived.conf an older lvs-pulumi wrote with the checked services in it (an HA pair's, or theirs alone): the
 * distribution's keepalived runs them, and a reload or stop of it deletes their entries (kinds/ha-pair/apply.ts moves
 * them to the checker instance).
 */
export function keepalivedRunsChecked(conf: string | null): boolean {
  return conf !== null && conf.includes(renderCheckedInclude(KEEPALIVED_CHECKED_DIR));
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
export function checkedServicesConfigTest(
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
  const confText = renderCheckerConf(root);
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
 * The checker instance running the new files (started, reloaded, or restarted with `restart`), then the keepalived
 * an older lvs-pulumi ran them in on a director without a pair stopped and its files removed: it was started with
 * --dont-release-ipvs, and the checker has taken the entries over by then ("already exists" is success to it).
 */
export function planCheckedKeepalived(live: CheckedKeepalivedFacts, changed: boolean, restart: boolean): Step[] {
  return [...planChecker(live.checker, { changed, restart }), ...planLegacyRemoval(live.keepalived)];
}

/** The last checked service gone: the checker stopped (the entries stay) and its files removed, a legacy one too. */
export function planCheckedKeepalivedRemoval(live: CheckedKeepalivedFacts): Step[] {
  return [...planCheckerRemoval(live.checker), ...planLegacyRemoval(live.keepalived)];
}

function planLegacyRemoval(live: KeepalivedUnitFacts): Step[] {
  return isLegacyCheckedOnlyConf(live.conf) ? planKeepalivedUnitRemoval(live) : [];
}

/** One checked item's keepalived files, the misc programs its checks run and the entries keepalived makes of them. */
export interface CheckedChange {
  serviceKey: string;
  files: OwnedFile[];
  programs: string[];
  /** Read back after keepalived loaded the files (none for files removed). */
  expected: KeepalivedEntry[];
}

/** The programs (argv[0]) that checks and notifications run, for the test that they exist on the director. */
export function programsOf(...commands: (string[] | undefined)[]): string[] {
  return commands.flatMap((argv) => (argv ? [argv[0]] : []));
}

/** A checked item's files at `paths`, all removed: it is deleted, or its service is handed back to us. */
export function checkedRemoval(serviceKey: string, paths: string[]): CheckedChange {
  return { serviceKey, files: paths.map((path) => ({ path, content: null })), programs: [], expected: [] };
}

/** The steps that write one item's files. */
export function checkedFileSteps(change: CheckedChange, file: (path: string) => string | null): Step[] {
  return planFiles(change.files, Object.fromEntries(change.files.map((f) => [f.path, file(f.path)])));
}

/**
 * The check of a batch's checked items whose files change (checkedServicesConfigTest of their files and programs), before
 * any is written; undefined when no item's files change.
 */
export function planCheckedConfigTest(
  entries: { checked?: CheckedChange }[],
  file: (path: string) => string | null,
  services: string[],
  listing: (key: string) => string[],
): Step | undefined {
  const changes = entries.flatMap((e) =>
    e.checked && checkedFileSteps(e.checked, file).length > 0 ? [e.checked] : [],
  );
  if (changes.length === 0) return undefined;
  const files = changes.flatMap((c) => c.files);
  const programs = changes.flatMap((c) => c.programs);
  return checkedServicesConfigTest(files, services, listing, programs);
}

/** The folders of `services` that `files` remove files from: pruned once the removals landed (when left empty). */
export function emptiedServiceDirs(services: string[], files: OwnedFile[]): string[] {
  return services
    .map((key) => checkedServicePaths(key).dir)
    .filter((dir) => files.some((f) => f.path.startsWith(`${dir}/`) && f.content === null));
}

/** Whether a service is included by `enables` (enableFiles): keepalived serves it once they land. */
export function enabledBy(enables: OwnedFile[]): (serviceKey: string) => boolean {
  return (key) => enables.some((e) => e.path === checkedServicePaths(key).enable && Boolean(e.content));
}

/** Whether the names in KEEPALIVED_CHECKED_DIR include a service (its enable file): the checker has work. */
export function anyCheckedServiceEnabled(names: string[]): boolean {
  return names.some((name) => name.endsWith(".conf"));
}

/**
 * No checked service enabled any more (`names` left in KEEPALIVED_CHECKED_DIR): the checker stopped (it keeps the
 * entries), then `removals` (the entries that go, deleted here), then the folder once nothing is left in it.
 */
export function planCheckedShutdown(live: CheckedKeepalivedFacts, removals: Step[], names: string[]): Step[] {
  return [
    ...planCheckedKeepalivedRemoval(live),
    ...removals,
    ...(names.length === 0 ? [pruneBatchDirs([KEEPALIVED_CHECKED_DIR])] : []),
  ];
}

/**
 * A pair member whose keepalived.conf an older lvs-pulumi wrote runs its checked services in the pair's keepalived:
 * the service cannot be handed back there (a reload would delete it, a restart move the VIPs) until the HAPair is
 * updated, which moves them to the checker instance. Throws then, naming `host` and the service `key`.
 */
export function refuseHandBackOnLegacyPair(host: string, key: string, conf: string | null): void {
  const pair = conf === null ? undefined : markedPair(conf);
  if (pair === undefined || !keepalivedRunsChecked(conf)) return;
  throw new Error(
    `host ${host}: virtual service ${key}: healthCheck cannot be removed yet: HA pair ${pair}'s keepalived ` +
      "still runs the checked services (configured by an older lvs-pulumi); update the HAPair first; nothing was changed",
  );
}
