import { Route } from "../facts/routes";
import { RealServerInputs } from "../schemas/real-server";
import { canonicalIp, hostPrefixLength, ipFamily, routeDestination } from "../model/ip";
import { serviceVips } from "./desired-entries";
import { serviceFamily } from "../schemas/service-identity";
import { HostClaim } from "../model/host-claim";
import { interfaceSysctl } from "./sysctls";

// The tunnel device each family's IPVS encapsulation arrives on, and the module that creates it.
const TUNNEL = { inet: { dev: "tunl0", module: "ipip" }, inet6: { dev: "ip6tnl0", module: "ip6_tunnel" } } as const;

/**
 * The host-side needs of one real server. `egressDev` is the interface facing clients and director (from
 * `ip route get`); it gets the ARP settings too, since the kernel uses max(all, dev) for arp_ignore.
 */
export function realServerClaim(id: string, inputs: RealServerInputs, egressDev: string): HostClaim {
  const claim: HostClaim = { id, vips: [], sysctls: {}, routes: [], modules: [], links: [] };
  const family = serviceFamily(inputs.service);
  // A fwmark service's VIPs are those its mark matches.
  const vips = serviceVips(inputs.service).map((vip) => `${vip}/${hostPrefixLength(family)}`);
  const forwarding = inputs.forwarding;
  if ((forwarding === "dr" || forwarding === "tun") && family === "inet") {
    // The VIP is local on every real server: it must not answer ARP for it nor use it as ARP source (IPv6 has no ARP).
    for (const dev of ["all", egressDev]) {
      claim.sysctls[interfaceSysctl("ipv4", dev, "arp_ignore")] = "1";
      claim.sysctls[interfaceSysctl("ipv4", dev, "arp_announce")] = "2";
    }
  }
  if (forwarding === "dr") claim.vips.push(...vips.map((cidr) => ({ dev: "lo", cidr })));
  if (forwarding === "tun") {
    const tunnel = TUNNEL[family];
    claim.modules.push(tunnel.module);
    claim.links.push(tunnel.dev);
    claim.vips.push(...vips.map((cidr) => ({ dev: tunnel.dev, cidr })));
    if (family === "inet") {
      claim.sysctls[interfaceSysctl("ipv4", "all", "rp_filter")] = "0";
      claim.sysctls[interfaceSysctl("ipv4", tunnel.dev, "rp_filter")] = "0";
    }
  }
  if (forwarding === "nat" && inputs.directorAddress !== undefined) {
    claim.routes.push({
      family,
      to: inputs.clientPrefix === undefined ? "default" : routeDestination(inputs.clientPrefix),
      via: canonicalIp(inputs.directorAddress),
    });
  }
  return claim;
}

/**
 * The interface facing clients and director, where ARP requests for the VIP arrive: the one holding the RIP (`holder`,
 * from `ip addr show to`), else the default route's (`routes`: the RIP family's table). None: refused on `host`.
 */
export function chooseEgressDevice(host: string, rip: string, holder: string | undefined, routes: Route[]): string {
  const dev = holder ?? routes.find((r) => r.dst === "default")?.dev;
  if (dev === undefined) throw new Error(`host ${host}: no interface holds the RIP ${rip} and no default route`);
  return dev;
}

/**
 * The director-side needs of a real server (claim `id`): NAT forwarding for replies; fullnat also tracks IPVS
 * connections for its SNAT. Undefined for DR and TUN, which need nothing of the director beyond the entry.
 */
export function realServerDirectorClaim(id: string, inputs: RealServerInputs): HostClaim | undefined {
  const claim: HostClaim = { id, vips: [], sysctls: {}, routes: [], modules: [], links: [] };
  const { forwarding, address } = inputs;
  if (forwarding === "nat" || forwarding === "fullnat") {
    claim.sysctls[ipFamily(address) === "inet6" ? "net.ipv6.conf.all.forwarding" : "net.ipv4.ip_forward"] = "1";
  }
  if (forwarding === "fullnat") {
    claim.sysctls["net.ipv4.vs.conntrack"] = "1";
    claim.modules.push("nf_conntrack", "xt_ipvs");
  }
  return Object.keys(claim.sysctls).length + claim.modules.length > 0 ? claim : undefined;
}
