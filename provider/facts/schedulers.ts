import { SCHEDULERS } from "../model/vocabulary";
import { Fact } from "./fact";

const MODULE_FILE = /^ip_vs_([a-z0-9]+)\.ko(\.xz|\.zst|\.gz)?$/;

/** Scheduler modules the running kernel ships (ip_vs_<sched>.ko[.xz|.zst|.gz]); ip_vs_ftp and the like are not schedulers. */
export function parseAvailableSchedulers(stdout: string): string[] {
  const known: readonly string[] = SCHEDULERS;
  return stdout
    .split(/\s+/)
    .map((name) => MODULE_FILE.exec(name)?.[1])
    .filter((name): name is string => name !== undefined && known.includes(name))
    .sort();
}

export function availableSchedulersFact(): Fact<string[]> {
  return {
    command: 'ls "/lib/modules/$(uname -r)/kernel/net/netfilter/ipvs/" 2>/dev/null || true',
    parse: parseAvailableSchedulers,
  };
}
