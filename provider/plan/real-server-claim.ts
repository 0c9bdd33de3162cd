import { RealServerInputs } from "../schemas/real-server";
import { canonicalIp, hostPrefixLength, routeDestination } from "../model/ip";
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
