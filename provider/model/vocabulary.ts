// The fixed word lists of IPVS: plain arrays, safe to capture in serialized closures.
/** IPVS schedulers shipped with the kernel (module ip_vs_<name>). */
export const SCHEDULERS = [
  "rr",
  "wrr",
  "lc",
  "wlc",
  "lblc",
  "lblcr",
  "dh",
  "sh",
  "sed",
  "nq",
  "fo",
  "ovf",
  "mh",
  "twos",
] as const;
export type Scheduler = (typeof SCHEDULERS)[number];

/** `-b` flags; each belongs to one scheduler (its prefix). */
export const SCHEDULER_FLAGS = ["sh-fallback", "sh-port", "mh-fallback", "mh-port"] as const;
export type SchedulerFlag = (typeof SCHEDULER_FLAGS)[number];

export function flagScheduler(flag: SchedulerFlag): Scheduler {
  return flag.startsWith("sh-") ? "sh" : "mh";
}

export const PROTOCOLS = ["tcp", "udp", "sctp"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export const FORWARDING_METHODS = ["dr", "nat", "tun", "fullnat"] as const;
export type ForwardingMethod = (typeof FORWARDING_METHODS)[number];
