import { command } from "../model/shell";

/**
 * rp_filter: the kernel applies max(conf.all, conf.<dev>). Strict mode (1) drops tunnelled packets whose client source
 * routes out another interface, so tun claims ask for 0. Loose mode (2) already passes them and still drops
 * unroutable sources, so a host hardened to 2 is left at 2 rather than weakened.
 */
export function sysctlSatisfied(key: string, wanted: string, live: string | undefined): boolean {
  if (live === wanted) return true;
  return key.endsWith(".rp_filter") && wanted === "0" && live === "2";
}

/**
 * The sysctls the boot file sets: what the claims want, except where the live value already satisfies it otherwise
 * (a hardened rp_filter 2): the live plan leaves that value alone and records no original, so boot must not lower it.
 */
export function bootSysctls(wanted: Record<string, string>, live: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(wanted).filter(([key, value]) => live[key] === value || !sysctlSatisfied(key, value, live[key])),
  );
}

/** `sysctl -w key=value` for each key whose live value does not satisfy the wanted one, in key order. */
export function planSysctls(wanted: Record<string, string>, live: Record<string, string>): string[] {
  return Object.keys(wanted)
    .sort()
    .filter((key) => !sysctlSatisfied(key, wanted[key], live[key]))
    .map((key) => command("sysctl", "-w", `${key}=${wanted[key]}`));
}

/** The sysctl key of a per-interface setting; sysctl writes dots in interface names (eth0.100) as slashes. */
export function interfaceSysctl(family: "ipv4" | "ipv6", dev: string, setting: string): string {
  return `net.${family}.conf.${dev.replace(/\./g, "/")}.${setting}`;
}
