import { directoryListingFact, fileFact, unitEnabledFact } from "../facts/files";
import { planIpvsBootRemoval } from "../plan/ipvs-boot";
import {
  IPVS_FRAGMENT_DIR,
  IPVS_RESTORE_SCRIPT,
  IPVS_TIMEOUTS_FILE,
  IPVS_UNIT_NAME,
  MARK_FRAGMENT_DIR,
  SNAT_FRAGMENT_DIR,
  unitPath,
} from "../model/host-paths";
import { HostSession } from "./session";

/** What installIpvsBoot (plan/ipvs-boot.ts) needs to know. */
export function ipvsBootFacts() {
  return {
    bootScript: fileFact(IPVS_RESTORE_SCRIPT),
    bootUnit: fileFact(unitPath(IPVS_UNIT_NAME)),
    bootEnabled: unitEnabledFact(IPVS_UNIT_NAME),
  };
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
  await session.apply(planIpvsBootRemoval(facts));
}
