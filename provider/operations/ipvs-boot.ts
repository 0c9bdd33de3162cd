import { directoryListingFact, fileFact, unitEnabledFact } from "../facts/files";
import { planFiles, pruneBatchDirs } from "../plan/files";
import { OwnedFile, Step } from "../plan/step";
import { command } from "../model/shell";
import {
  OWNED_DIRS,
  IPVS_FRAGMENT_DIR,
  IPVS_RESTORE_SCRIPT,
  IPVS_TIMEOUTS_FILE,
  IPVS_UNIT_NAME,
  MARK_FRAGMENT_DIR,
  SNAT_FRAGMENT_DIR,
  unitPath,
} from "../model/host-paths";
import { renderIpvsRestoreScript } from "../render/ipvs-restore-script";
import { renderIpvsUnit } from "../render/units";
import { HostSession } from "./session";

// The director's boot replay of our IPVS entries and of the director's timeouts: a unit and its script, present while
// we own anything there (a director with timeouts and no service still needs it, or a reboot resets the timeouts).

function bootFiles(present: boolean): OwnedFile[] {
  return [
    { path: IPVS_RESTORE_SCRIPT, content: present ? renderIpvsRestoreScript() : null, mode: "0755" },
    { path: unitPath(IPVS_UNIT_NAME), content: present ? renderIpvsUnit() : null },
  ];
}

/** What installIpvsBoot needs to know. */
export function ipvsBootFacts() {
  return {
    bootScript: fileFact(IPVS_RESTORE_SCRIPT),
    bootUnit: fileFact(unitPath(IPVS_UNIT_NAME)),
    bootEnabled: unitEnabledFact(IPVS_UNIT_NAME),
  };
}

type BootFacts = { bootScript: string | null; bootUnit: string | null; bootEnabled: boolean };

/** Commands that install and enable the boot replay, when missing. */
export function installIpvsBoot(facts: BootFacts): Step[] {
  const live = { [IPVS_RESTORE_SCRIPT]: facts.bootScript, [unitPath(IPVS_UNIT_NAME)]: facts.bootUnit };
  return [
    ...planFiles(bootFiles(true), live),
    ...(facts.bootEnabled ? [] : [command("systemctl", "enable", "--quiet", IPVS_UNIT_NAME)]),
  ];
}

/** Removes the boot replay once no fragment of ours and no timeouts file is left on the host. */
export async function removeIpvsBootIfUnused(session: HostSession): Promise<void> {
  const facts = await session.read({
    ...ipvsBootFacts(),
    ipvsFragments: directoryListingFact(IPVS_FRAGMENT_DIR),
    snatFragments: directoryListingFact(SNAT_FRAGMENT_DIR),
    markFragments: directoryListingFact(MARK_FRAGMENT_DIR),
    timeoutsFile: fileFact(IPVS_TIMEOUTS_FILE),
  });
  if (facts.timeoutsFile !== null) return;
  if ([facts.ipvsFragments, facts.snatFragments, facts.markFragments].some((files) => files.length > 0)) return;
  const live = { [IPVS_RESTORE_SCRIPT]: facts.bootScript, [unitPath(IPVS_UNIT_NAME)]: facts.bootUnit };
  const removal = [
    ...(facts.bootEnabled ? [command("systemctl", "disable", "--quiet", IPVS_UNIT_NAME)] : []),
    ...planFiles(bootFiles(false), live),
  ];
  await session.apply(removal.length > 0 ? [...removal, pruneBatchDirs(OWNED_DIRS)] : []);
}
