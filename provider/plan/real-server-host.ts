import { LinkState } from "../facts/link";
import { Route } from "../facts/routes";
import { Family } from "../model/ip";
import {
  ClaimedRoute,
  ClaimedVip,
  HostClaim,
  HostOriginals,
  mergeClaims,
  routeKey,
  vipAddressArgs,
} from "../model/host-claim";
import { planModules } from "./modules";
import { announceVip } from "./announce";
import { command } from "../model/shell";
import { planSysctls, sysctlSatisfied } from "./sysctls";

export interface RealServerHostFacts {
  loadedModules: string[];
  links: Record<string, LinkState>;
  /** CIDRs per device, as `ip -j addr show dev X` lists them. */
  addresses: Record<string, string[]>;
  sysctls: Record<string, string>;
  routes: Record<Family, Route[]>;
  /** VIPs the host's stored claims held before this apply: a live VIP none of them held was not ours. */
  heldVips: ClaimedVip[];
}

export interface RealServerHostPlan {
  commands: string[];
  /**
   * To store on the host before running the commands: what was there, and what they change now. Values being
   * restored stay in it, so a restore that fails half-way is retried with them.
   */
  recorded: HostOriginals;
  /** To store once the commands succeeded: without what they restored. */
  originals: HostOriginals;
}

/**
 * `claims` are every claim still on the host (including new ones), `released` those being removed. Order: modules,
 * links, sysctls (ARP settings before a VIP appears, so it is never announced), VIPs, routes; then what is released.
 */
export function planRealServerHost(
  claims: HostClaim[],
  released: HostClaim[],
  facts: RealServerHostFacts,
  originals: HostOriginals,
): RealServerHostPlan {
  const wanted = mergeClaims(claims);
  const gone = mergeClaims(released);
  const next: HostOriginals = { sysctls: { ...originals.sysctls }, routes: { ...originals.routes } };
  const preexisting = new Set(originals.vips ?? []);
  const commands: string[] = [...planModules(wanted.modules, facts.loadedModules)];

  for (const dev of wanted.links) {
    if (!facts.links[dev]?.up) commands.push(command("ip", "link", "set", "dev", dev, "up"));
  }
  for (const key of Object.keys(wanted.sysctls)) {
    const live = facts.sysctls[key];
    if (!(key in next.sysctls) && live !== undefined && !sysctlSatisfied(key, wanted.sysctls[key], live)) {
      next.sysctls[key] = live;
    }
  }
  commands.push(...planSysctls(wanted.sysctls, facts.sysctls));
  for (const vip of wanted.vips) {
    const live = facts.addresses[vip.dev]?.includes(vip.cidr);
    if (!live) commands.push(command("ip", "addr", "add", ...vipAddressArgs(vip)), ...announceVip(vip));
    else if (!facts.heldVips.some((v) => vipKey(v) === vipKey(vip))) preexisting.add(vipKey(vip));
  }
  for (const route of wanted.routes) {
    const live = liveRoute(facts, route);
    if (live?.gateway === route.via) continue;
    if (!(routeKey(route) in next.routes)) next.routes[routeKey(route)] = live ? pick(live) : null;
    commands.push(command("ip", ...familyArgs(route.family), "route", "replace", route.to, "via", route.via));
  }
  const recorded = withVips({ sysctls: { ...next.sysctls }, routes: { ...next.routes } }, preexisting);

  for (const vip of gone.vips) {
    if (wanted.vips.some((v) => vipKey(v) === vipKey(vip))) continue;
    if (!preexisting.delete(vipKey(vip)) && facts.addresses[vip.dev]?.includes(vip.cidr)) {
      commands.push(command("ip", "addr", "del", vip.cidr, "dev", vip.dev));
    }
  }
  for (const route of gone.routes) {
    const key = routeKey(route);
    if (wanted.routes.some((r) => routeKey(r) === key) || !(key in next.routes)) continue;
    commands.push(...restoreRoute(route, next.routes[key], liveRoute(facts, route)));
    delete next.routes[key];
  }
  for (const key of Object.keys(gone.sysctls).sort()) {
    if (key in wanted.sysctls || !(key in next.sysctls)) continue;
    if (facts.sysctls[key] !== next.sysctls[key]) commands.push(command("sysctl", "-w", `${key}=${next.sysctls[key]}`));
    delete next.sysctls[key];
  }
  // Modules and links stay: an idle tunl0 or a loaded ipip module carries no traffic and others may rely on them.
  return { commands, recorded, originals: withVips(next, preexisting) };
}

function withVips(originals: HostOriginals, preexisting: Set<string>): HostOriginals {
  return preexisting.size > 0 ? { ...originals, vips: [...preexisting].sort() } : originals;
}

function vipKey(vip: ClaimedVip): string {
  return `${vip.dev} ${vip.cidr}`;
}

function familyArgs(family: Family): string[] {
  return family === "inet6" ? ["-6"] : [];
}

function liveRoute(facts: RealServerHostFacts, route: ClaimedRoute): Route | undefined {
  return facts.routes[route.family].find((r) => r.dst === route.to);
}

function pick(route: Route): { via?: string; dev?: string } {
  const original: { via?: string; dev?: string } = {};
  if (route.gateway !== undefined) original.via = route.gateway;
  if (route.dev !== undefined) original.dev = route.dev;
  return original;
}

function restoreRoute(
  route: ClaimedRoute,
  original: { via?: string; dev?: string } | null,
  live: Route | undefined,
): string[] {
  const ip = ["ip", ...familyArgs(route.family), "route"];
  if (original === null) return live?.gateway === route.via ? [command(...ip, "del", route.to, "via", route.via)] : [];
  if (live && live.gateway === original.via && live.dev === original.dev) return [];
  const target = [...(original.via ? ["via", original.via] : []), ...(original.dev ? ["dev", original.dev] : [])];
  return [command(...ip, "replace", route.to, ...target)];
}
