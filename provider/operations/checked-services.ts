// Checked virtual services on a director: keepalived owns their IPVS entries. A batch (virtual services or real
// servers) hands its keepalived files to these helpers: check them staged, write them, then start or reload keepalived.
import { setTimeout as sleep } from "timers/promises";
import { directoryListingFact, fileFact, unitEnabledFact } from "../facts/files";
import { checkerStateFact } from "../facts/checkerState";
import { ipvsTableFact } from "../facts/ipvsTable";
import { IpvsTable } from "../facts/ipvsModel";
import { programPresentFact, unitActiveFact } from "../facts/services";
import {
  checkedConfConflict,
  CheckedKeepalivedFacts,
  checkedServicesCheck,
  enableFiles,
  planCheckedKeepalived,
  planCheckedKeepalivedRemoval,
} from "../plan/checkedServices";
import { KeepalivedEntry, unappliedEntries } from "../plan/checkedReadBack";
import { OwnedFile, planFiles, pruneEmptyDirs } from "../plan/files";
import { Step } from "../plan/script";
import { command } from "../plan/shell";
import { installPackage } from "../plan/packages";
import {
  checkedServicePaths,
  KEEPALIVED_CHECKED_DIR,
  KEEPALIVED_CONF,
  KEEPALIVED_DROPIN,
  KEEPALIVED_ENABLED_MARKER,
  KEEPALIVED_UNIT_NAME,
} from "../render/paths";
import { ItemOutcome } from "./host-batch";
import { markedPair } from "../render/keepalivedConf";
import { HostSession } from "./session";

/** Facts for a batch touching checked services `keys` (read with the batch's other facts, one round trip). */
export function checkedFacts(keys: string[]) {
  return {
    keepalivedConf: fileFact(KEEPALIVED_CONF),
    keepalivedDropIn: fileFact(KEEPALIVED_DROPIN),
    keepalivedEnabled: unitEnabledFact(KEEPALIVED_UNIT_NAME),
    keepalivedActive: unitActiveFact(KEEPALIVED_UNIT_NAME),
    keepalivedEnabledByUs: fileFact(KEEPALIVED_ENABLED_MARKER),
    keepalivedInstalled: programPresentFact("keepalived"),
    checkedServices: directoryListingFact(KEEPALIVED_CHECKED_DIR),
    ...Object.fromEntries(keys.map((key, i) => [`checked_${i}`, directoryListingFact(checkedServicePaths(key).dir)])),
  };
}

type CheckedFactValues = {
  keepalivedConf: string | null;
  keepalivedDropIn: string | null;
  keepalivedEnabled: boolean;
  keepalivedActive: boolean;
  keepalivedEnabledByUs: string | null;
  keepalivedInstalled: boolean;
  checkedServices: string[];
};

function keepalivedFacts(values: CheckedFactValues): CheckedKeepalivedFacts {
  return {
    conf: values.keepalivedConf,
    dropIn: values.keepalivedDropIn,
    enabled: values.keepalivedEnabled,
    active: values.keepalivedActive,
    enabledByUs: values.keepalivedEnabledByUs !== null,
    installed: values.keepalivedInstalled,
  };
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

/**
 * Checks the batch's checked items whose files change, before any is written: keepalived.conf must be ours to use, and
 * the staged result must pass `keepalived -t` and name only programs that exist. Returns the reason they are refused
 * (every checked item of the batch then fails with it), or undefined.
 */
export async function refuseCheckedChanges(
  session: HostSession,
  keys: string[],
  values: Record<string, unknown>,
  entries: { checked?: CheckedChange }[],
  file: (path: string) => string | null,
): Promise<Error | undefined> {
  const changes = entries.flatMap((e) =>
    e.checked && checkedFileSteps(e.checked, file).length > 0 ? [e.checked] : [],
  );
  if (changes.length === 0) return undefined;
  const facts = values as CheckedFactValues;
  const conflict = checkedConfConflict(facts.keepalivedConf);
  if (conflict) return new Error(`host ${session.name}: ${conflict}; nothing was changed`);
  try {
    if (!facts.keepalivedInstalled) await session.apply([installPackage("keepalived")]);
    const files = changes.flatMap((c) => c.files);
    const programs = changes.flatMap((c) => c.programs);
    await session.apply([checkedServicesCheck(files, keys, listingOf(keys, values), programs)]);
    return undefined;
  } catch (error) {
    return new Error(
      `host ${session.name}: the health checks are refused, nothing was changed: ${(error as Error).message}`,
    );
  }
}

function listingOf(keys: string[], values: Record<string, unknown>): (key: string) => string[] {
  return (key) => (values[`checked_${keys.indexOf(key)}`] as string[] | undefined) ?? [];
}

/** The steps that write one item's files. */
export function checkedFileSteps(change: CheckedChange, file: (path: string) => string | null) {
  return planFiles(change.files, Object.fromEntries(change.files.map((f) => [f.path, file(f.path)])));
}

/** The IPVS entries a batch removes: their keys while they are still in a table, and the steps that delete them. */
export interface RemovedEntries {
  left: (table: IpvsTable) => string[];
  steps: (table: IpvsTable) => Step[];
}

export const NOTHING_REMOVED: RemovedEntries = { left: () => [], steps: () => [] };

/** How keepalived takes a batch's files: reloaded, or (a service handed back) its checker restarted. */
export interface Activation {
  restart: boolean;
}

/**
 * After the batch's files landed: the services' enable files, keepalived.conf and the unit, then a start or reload
 * (a restart with `restart`: the entries stay, --dont-release-ipvs). The removed entries are waited for, so that a
 * resource is gone from the table when its delete returns. With no service enabled any more keepalived is stopped (it
 * keeps the entries) and the removed entries are deleted here, and what we put there for keepalived goes too.
 */
export async function activateChecked(
  session: HostSession,
  keys: string[],
  values: Record<string, unknown>,
  written: CheckedChange[],
  removed: RemovedEntries,
  { restart }: Activation = { restart: false },
): Promise<void> {
  const facts = keepalivedFacts(values as CheckedFactValues);
  const files = written.flatMap((c) => c.files);
  const enables = enableFiles(keys, listingOf(keys, values), files);
  const { file } = await session.readWithFiles(
    {},
    enables.map((e) => e.path),
  );
  const enableSteps = planFiles(enables, Object.fromEntries(enables.map((e) => [e.path, file(e.path)])));
  const emptied = keys
    .map((key) => checkedServicePaths(key).dir)
    .filter((dir) => files.some((f) => f.path.startsWith(`${dir}/`) && f.content === null));
  await session.apply([...enableSteps, ...(emptied.length > 0 ? [pruneEmptyDirs(emptied)] : [])]);
  const { left, table } = await session.read({
    left: directoryListingFact(KEEPALIVED_CHECKED_DIR),
    table: ipvsTableFact(),
  });
  const enabled = left.some((name) => name.endsWith(".conf"));
  const pairs = facts.conf !== null && markedPair(facts.conf) !== undefined;
  if (enabled || pairs) {
    const stop = restart && facts.active ? [command("systemctl", "stop", KEEPALIVED_UNIT_NAME)] : [];
    const live = restart ? { ...facts, active: false } : facts;
    await session.apply([...stop, ...planCheckedKeepalived(live, files.length > 0 || enableSteps.length > 0)]);
    const serving = (key: string) => enables.some((e) => e.path === checkedServicePaths(key).enable && e.content);
    const expected = written.flatMap((c) => c.expected);
    const timeoutMs = enabled ? 10_000 : 3_000;
    const { stale, unapplied } = await readBack(session, removed.left, expected, serving, timeoutMs);
    if (left.length === 0) await session.apply([pruneEmptyDirs([KEEPALIVED_CHECKED_DIR])]);
    if (unapplied.length > 0) {
      throw new Error(
        `host ${session.name}: keepalived has not applied its configuration ${timeoutMs / 1000} s after the ` +
          `${restart ? "restart" : "reload"}: ` +
          `${unapplied.join("; ")}; see \`journalctl -u keepalived\``,
      );
    }
    if (stale.length === 0) return;
    // An HA pair's keepalived without checked services left may stop its checker and keep their entries
    // (--dont-release-ipvs): they are ours to delete then.
    if (enabled) {
      throw new Error(
        `host ${session.name}: keepalived still has ${stale.join(", ")} ${timeoutMs / 1000} s after the reload; see \`journalctl -u keepalived\``,
      );
    }
    const { table: now } = await session.read({ table: ipvsTableFact() });
    await session.apply(removed.steps(now));
    return;
  }
  // No checked service enabled: keepalived is stopped (it keeps the entries) and the removed ones are deleted here.
  // Files of a service handed back may stay until its real servers' updates: keepalived is not needed meanwhile.
  await session.apply([
    ...(facts.active ? [command("systemctl", "stop", KEEPALIVED_UNIT_NAME)] : []),
    ...removed.steps(table),
    ...planCheckedKeepalivedRemoval({ ...facts, active: false }),
    ...(left.length === 0 ? [pruneEmptyDirs([KEEPALIVED_CHECKED_DIR])] : []),
  ]);
}

/**
 * keepalived applies a reload asynchronously: polls the table and its checker state until the removed entries are gone
 * and the written ones are as configured (a real server its check keeps out counts as configured); what is left.
 */
async function readBack(
  session: HostSession,
  left: (table: IpvsTable) => string[],
  expected: KeepalivedEntry[],
  serving: (serviceKey: string) => boolean,
  timeoutMs: number,
): Promise<{ stale: string[]; unapplied: string[] }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { table, checker } = await session.read({
      table: ipvsTableFact(),
      ...(expected.length > 0 ? { checker: checkerStateFact() } : {}),
    });
    const stale = left(table);
    const unapplied = unappliedEntries(expected, table, checker ?? {}, serving);
    if ((stale.length === 0 && unapplied.length === 0) || Date.now() > deadline) return { stale, unapplied };
    await sleep(250);
  }
}

/** activateChecked for a batch's items that were written; when it fails, those items fail with its error. */
export async function activateCheckedItems(
  session: HostSession,
  keys: string[],
  values: Record<string, unknown>,
  entries: { checked?: CheckedChange }[],
  outcomes: ItemOutcome[],
  removed: RemovedEntries,
  activation?: Activation,
): Promise<void> {
  const written = entries.flatMap((e, i) => (e.checked && "done" in outcomes[i] ? [e.checked] : []));
  if (written.length === 0) return;
  try {
    await activateChecked(session, keys, values, written, removed, activation);
  } catch (error) {
    entries.forEach((e, i) => {
      if (e.checked && "done" in outcomes[i]) outcomes[i] = { error: error as Error };
    });
  }
}
