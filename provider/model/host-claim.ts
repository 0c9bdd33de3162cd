import { Family } from "./ip";

/** A VIP held on a host: on lo (DR) or the tunnel device (TUN) of a real server, or facing clients on a director. */
/**
 * `ip addr` arguments that add a VIP. An IPv6 VIP is deprecated (preferred_lft 0): it still receives, but the host
 * never picks it as the source of its own traffic, which it would otherwise (Linux prefers the /128 VIP over the /64
 * address when matching prefixes), so a director's health checks would leave from the VIP and a real server holding
 * that VIP on lo would answer itself.
 */
export function vipAddressArgs(vip: ClaimedVip): string[] {
  return [vip.cidr, "dev", vip.dev, ...(vip.cidr.includes(":") ? ["preferred_lft", "0"] : [])];
}

export interface ClaimedVip {
  dev: string;
  /** "203.0.113.101/32", "2001:db8::1/128" */
  cidr: string;
  /**
   * The VIP faces clients on this link (a director's): neighbours are told when it is added, since routers keep the
   * previous holder's MAC for a VIP that moved (seconds on Linux, hours on some switches). Never set on a real server.
   */
  announce?: boolean;
}

/** NAT return path: replies to `to` ("default" or a client prefix) go via the director. */
export interface ClaimedRoute {
  family: Family;
  to: string;
  via: string;
}

/**
 * What one RealServer resource needs on its host. Several resources on one host share VIPs and sysctls, so the
 * host's desired state is the union of all claims, and an item goes away only with the last claim that needs it.
 */
export interface HostClaim {
  id: string;
  vips: ClaimedVip[];
  sysctls: Record<string, string>;
  routes: ClaimedRoute[];
  modules: string[];
  /** Links to bring up (tunl0). */
  links: string[];
}

/** Values recorded before our first change to them, restored when the last claim needing them goes. */
export interface HostOriginals {
  sysctls: Record<string, string>;
  /** By routeKey; null when there was no such route. */
  routes: Record<string, { via?: string; dev?: string } | null>;
  /** VIPs ("dev cidr") that were on the host before the first claim on them: never deleted by us. */
  vips?: string[];
}

export type HostState = Omit<HostClaim, "id">;

export function routeKey(route: { family: Family; to: string }): string {
  return `${route.family}:${route.to}`;
}

/** The union of claims; two claims that want different values for one sysctl or route are an error naming both. */
export function mergeClaims(claims: HostClaim[]): HostState {
  const state: HostState = { vips: [], sysctls: {}, routes: [], modules: [], links: [] };
  const sysctlOwner: Record<string, string> = {};
  const routeOwner: Record<string, string> = {};
  for (const claim of [...claims].sort((a, b) => a.id.localeCompare(b.id))) {
    for (const vip of claim.vips) {
      if (!state.vips.some((v) => v.dev === vip.dev && v.cidr === vip.cidr)) state.vips.push(vip);
    }
    for (const [key, value] of Object.entries(claim.sysctls)) {
      if (key in state.sysctls && state.sysctls[key] !== value) {
        throw new Error(
          `${key}: claim ${claim.id} wants ${value}, claim ${sysctlOwner[key]} wants ${state.sysctls[key]}`,
        );
      }
      state.sysctls[key] = value;
      sysctlOwner[key] = claim.id;
    }
    for (const route of claim.routes) {
      const existing = state.routes.find((r) => routeKey(r) === routeKey(route));
      if (existing && existing.via !== route.via) {
        throw new Error(
          `route ${route.to}: claim ${claim.id} wants via ${route.via}, claim ${routeOwner[routeKey(route)]} wants via ${existing.via}`,
        );
      }
      if (!existing) state.routes.push(route);
      routeOwner[routeKey(route)] = claim.id;
    }
    for (const name of claim.modules) if (!state.modules.includes(name)) state.modules.push(name);
    for (const name of claim.links) if (!state.links.includes(name)) state.links.push(name);
  }
  return state;
}
