// Checked virtual services on a director: keepalived (the checker instance) owns their IPVS entries. A batch (virtual
// services or real servers) hands its keepalived files to these helpers: check them staged, write them, then start or
// reload the checker.
import { directoryListingFact, fileFact, unitEnabledFact } from "../facts/files";
import { FactValues } from "../facts/batch";
import { CheckedRealServer, checkerStateFact } from "../facts/checker-state";
import { ipvsTableFact } from "../facts/ipvs-table";
import { IpvsTable } from "../model/ipvs";
import { programPresentFact, unitActiveFact } from "../facts/services";
import {
  anyCheckedServiceEnabled,
  CheckedChange,
  CheckedKeepalivedFacts,
  emptiedServiceDirs,
  enableFiles,
  enabledBy,
  planCheckedConfigTest,
  planCheckedKeepalived,
  planCheckedShutdown,
} from "../plan/checked-services";
import { KeepalivedEntry, planTakenOverRepairs, unappliedEntries } from "../plan/checked-read-back";
import { planFiles, pruneBatchDirs } from "../plan/files";
import { Step } from "../plan/step";
import { CheckerFacts } from "../plan/checker";
import { installPackage } from "../plan/packages";
import {
  checkedServicePaths,
  CHECKER_CONF,
  CHECKER_UNIT_NAME,
  KEEPALIVED_CHECKED_DIR,
  KEEPALIVED_CONF,
  KEEPALIVED_DROPIN,
  KEEPALIVED_ENABLED_MARKER,
  KEEPALIVED_UNIT_NAME,
  unitPath,
} from "../model/host-paths";
import { ItemOutcome } from "../plan/host-batch";
import { HostSession } from "./session";

/** The checker instance's unit and config. */
export function checkerFacts() {
  return {
    checkerConf: fileFact(CHECKER_CONF),
    checkerUnit: fileFact(unitPath(CHECKER_UNIT_NAME)),
    checkerEnabled: unitEnabledFact(CHECKER_UNIT_NAME),
    checkerActive: unitActiveFact(CHECKER_UNIT_NAME),
  };
}

type CheckerFactValues = FactValues<ReturnType<typeof checkerFacts>>;

export function checkerOf(values: CheckerFactValues): CheckerFacts {
  return {
    conf: values.checkerConf,
    unit: values.checkerUnit,
    enabled: values.checkerEnabled,
    active: values.checkerActive,
  };
}

/** Facts for a batch touching checked services `keys` (read with the batch's other facts, one round trip). */
export function checkedFacts(keys: string[]) {
  return {
    ...checkerFacts(),
    // The distribution's keepalived: an older lvs-pulumi ran checked services in it.
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

type CheckedFactValues = CheckerFactValues & {
  keepalivedConf: string | null;
  keepalivedDropIn: string | null;
  keepalivedEnabled: boolean;
  keepalivedActive: boolean;
  keepalivedEnabledByUs: string | null;
  keepalivedInstalled: boolean;
  checkedServices: string[];
};

function checkedKeepalivedFactsOf(values: CheckedFactValues): CheckedKeepalivedFacts {
  return {
    checker: checkerOf(values),
    keepalived: {
      conf: values.keepalivedConf,
      dropIn: values.keepalivedDropIn,
      enabled: values.keepalivedEnabled,
      active: values.keepalivedActive,
      enabledByUs: values.keepalivedEnabledByUs !== null,
    },
    installed: values.keepalivedInstalled,
  };
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
  const check = planCheckedConfigTest(entries, file, keys, listingOf(keys, values));
  if (check === undefined) return undefined;
  const facts = values as CheckedFactValues;
  try {
    if (!facts.keepalivedInstalled) await session.apply([installPackage("keepalived")]);
    await session.apply([check]);
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

/** The IPVS entries a batch removes: their keys while they are still in a table, and the steps that delete them. */
export interface RemovedEntries {
  left: (table: IpvsTable) => string[];
  steps: (table: IpvsTable) => Step[];
}

export const NOTHING_REMOVED: RemovedEntries = { left: () => [], steps: () => [] };

/** How the checker takes a batch's files: reloaded, or (a service handed back) restarted. */
export interface Activation {
  restart: boolean;
}

/**
 * After the batch's files landed: the services' enable files, then the checker instance started or reloaded (restarted
 * with `restart`: the entries stay, --dont-release-ipvs). The removed entries are waited for, so that a resource is gone
 * from the table when its delete returns. With no service enabled any more the checker is stopped (it keeps the
 * entries), the removed entries are deleted here, and what we put there for the checker goes too.
 */
export async function activateChecked(
  session: HostSession,
  keys: string[],
  values: Record<string, unknown>,
  written: CheckedChange[],
  removed: RemovedEntries,
  { restart }: Activation = { restart: false },
): Promise<void> {
  const facts = checkedKeepalivedFactsOf(values as CheckedFactValues);
  const files = written.flatMap((c) => c.files);
  const enables = enableFiles(keys, listingOf(keys, values), files);
  const { file } = await session.readWithFiles(
    {},
    enables.map((e) => e.path),
  );
  const enableSteps = planFiles(enables, Object.fromEntries(enables.map((e) => [e.path, file(e.path)])));
  const emptied = emptiedServiceDirs(keys, files);
  await session.apply([...enableSteps, ...(emptied.length > 0 ? [pruneBatchDirs(emptied)] : [])]);
  const { left, table } = await session.read({
    left: directoryListingFact(KEEPALIVED_CHECKED_DIR),
    table: ipvsTableFact(),
  });
  if (anyCheckedServiceEnabled(left)) {
    const changed = files.length > 0 || enableSteps.length > 0;
    await session.apply(planCheckedKeepalived(facts, changed, restart));
    const serving = enabledBy(enables);
    const expected = written.flatMap((c) => c.expected);
    const timeoutMs = 10_000;
    // A start takes existing entries over as they are: what still differs after a while is edited (see
    // planTakenOverRepairs), then waited for again.
    const started = restart || !facts.checker.active;
    let { stale, unapplied } = await readBack(session, removed.left, expected, serving, started ? 3_000 : timeoutMs);
    if (unapplied.length > 0 && started) {
      const { table: now, checker } = await session.read({ table: ipvsTableFact(), checker: checkerStateFact() });
      await session.apply(planTakenOverRepairs(expected, now, checker, serving));
      ({ stale, unapplied } = await readBack(session, removed.left, expected, serving, timeoutMs));
    }
    const problems = [...unapplied, ...stale.map((key) => `${key} still in the table`)];
    if (problems.length > 0) {
      throw new Error(
        `host ${session.name}: the health checkers have not applied their configuration ${timeoutMs / 1000} s ` +
          `after the ${restart ? "restart" : "reload"}: ${problems.join("; ")}; see \`journalctl -u ${CHECKER_UNIT_NAME}\``,
      );
    }
    return;
  }
  // No checked service enabled: the checker is stopped (it keeps the entries) and the removed ones are deleted here.
  // Files of a service handed back may stay until its real servers' updates: the checker is not needed meanwhile.
  await session.apply(planCheckedShutdown(facts, removed.steps(table), left));
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
  const remaining = (values: { table: IpvsTable; checker?: Record<string, CheckedRealServer> }) => ({
    stale: left(values.table),
    unapplied: unappliedEntries(expected, values.table, values.checker ?? {}, serving),
  });
  const { values } = await session.readUntil(
    { table: ipvsTableFact(), ...(expected.length > 0 ? { checker: checkerStateFact() } : {}) },
    (now) => Object.values(remaining(now)).every((list) => list.length === 0),
    timeoutMs,
  );
  return remaining(values);
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
