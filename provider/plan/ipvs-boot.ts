// The director's boot replay of our IPVS entries and of the director's timeouts: a unit and its script, present while
// we own anything there (a director with timeouts and no service still needs it, or a reboot resets the timeouts).
import { command } from "../model/shell";
import { IPVS_RESTORE_SCRIPT, IPVS_UNIT_NAME, OWNED_DIRS, unitPath } from "../model/host-paths";
import { renderIpvsRestoreScript } from "../render/ipvs-restore-script";
import { renderIpvsUnit } from "../render/units";
import { planFiles, pruneBatchDirs } from "./files";
import { OwnedFile, Step } from "./step";

/** The boot replay as the host has it (operations/ipvs-boot.ts reads it). */
export interface BootFacts {
  bootScript: string | null;
  bootUnit: string | null;
  bootEnabled: boolean;
}

/** What else decides whether the boot replay is still needed: the files it replays. */
export interface BootUseFacts extends BootFacts {
  ipvsFragments: string[];
  snatFragments: string[];
  markFragments: string[];
  timeoutsFile: string | null;
}

function bootFiles(present: boolean): OwnedFile[] {
  return [
    { path: IPVS_RESTORE_SCRIPT, content: present ? renderIpvsRestoreScript() : null, mode: "0755" },
    { path: unitPath(IPVS_UNIT_NAME), content: present ? renderIpvsUnit() : null },
  ];
}

function liveFiles(facts: BootFacts): Record<string, string | null> {
  return { [IPVS_RESTORE_SCRIPT]: facts.bootScript, [unitPath(IPVS_UNIT_NAME)]: facts.bootUnit };
}

/** Commands that install and enable the boot replay, when missing. */
export function installIpvsBoot(facts: BootFacts): Step[] {
  return [
    ...planFiles(bootFiles(true), liveFiles(facts)),
    ...(facts.bootEnabled ? [] : [command("systemctl", "enable", "--quiet", IPVS_UNIT_NAME)]),
  ];
}

/**
 * The boot replay removed once no fragment of ours and no timeouts file is left on the host, then our emptied
 * folders; nothing while anything is left, or when it is gone already.
 */
export function planIpvsBootRemoval(facts: BootUseFacts): Step[] {
  if (facts.timeoutsFile !== null) return [];
  if ([facts.ipvsFragments, facts.snatFragments, facts.markFragments].some((files) => files.length > 0)) return [];
  const removal = [
    ...(facts.bootEnabled ? [command("systemctl", "disable", "--quiet", IPVS_UNIT_NAME)] : []),
    ...planFiles(bootFiles(false), liveFiles(facts)),
  ];
  return removal.length > 0 ? [...removal, pruneBatchDirs(OWNED_DIRS)] : [];
}
