// A virtual service's VIPs held on a director, as a host claim (model/host-claim.ts): the addresses, the device each is
// held on, and (IPv6) the sysctl that announces them.
import { Route } from "../facts/routes";
import { ClaimedVip, HostClaim } from "../model/host-claim";
import { canonicalIp, Family, hostPrefixLength, ipFamily } from "../model/ip";
import { announceSysctls } from "./announce";

/** A service's VIPs as the addresses a director holds (of the first VIP's family: a service has one). */
export function vipCidrs(vips: string[]): { family: Family; cidrs: string[] } {
  const family = ipFamily(vips[0]) ?? "inet";
  return { family, cidrs: vips.map((vip) => `${canonicalIp(vip)}/${hostPrefixLength(family)}`) };
}

/**
 * The device to hold `vip` (as `cidr`) on: the one a claim of the service (`base`, held by any owner: `base@…`)
 * holds it on, since once the VIP is ours it routes via lo; else where the route toward it leaves (`route`, from
 * `ip route get`), else the default route's (`defaults`: the family's table). None of them: refused on `host`.
 */
export function chooseVipDevice(
  host: string,
  base: string,
  vip: string,
  cidr: string,
  facts: { route: Route | undefined; defaults: Route[]; claims: HostClaim[] },
): string {
  const claims = facts.claims.filter((c) => c.id === base || c.id.startsWith(`${base}@`));
  const held = claims.flatMap((c) => c.vips).find((v) => v.cidr === cidr)?.dev;
  const routed = facts.route?.dev !== "lo" ? facts.route?.dev : undefined;
  const fallback = facts.defaults.find((r) => r.dst === "default")?.dev;
  const dev = held ?? routed ?? fallback;
  if (dev === undefined) throw new Error(`host ${host}: no interface to hold VIP ${vip}; set vipInterface`);
  return dev;
}

/** The claim `id` holding `held` (VIPs of `family`); an IPv6 VIP's device announces it (announceSysctls). */
export function serviceVipClaim(id: string, family: Family, held: ClaimedVip[]): HostClaim {
  const devices = [...new Set(held.map((vip) => vip.dev))];
  return {
    id,
    vips: held,
    sysctls:
      family === "inet6" ? Object.fromEntries(devices.flatMap((dev) => Object.entries(announceSysctls(dev)))) : {},
    routes: [],
    modules: [],
    links: [],
  };
}
