import { ipFamily } from "../model/ip";
import { ClaimedVip } from "../model/host-claim";
import { command } from "../model/shell";
import { interfaceSysctl } from "./sysctls";

/**
 * For an IPv6 VIP facing clients: the kernel sends an unsolicited neighbour advertisement once the address has passed
 * duplicate address detection, but only where ndisc_notify is on (a sysctl the claim holds like any other).
 */
export function announceSysctls(dev: string): Record<string, string> {
  return { [interfaceSysctl("ipv6", dev, "ndisc_notify")]: "1" };
}

/**
 * What tells the link's neighbours that an IPv4 VIP is here now: two gratuitous ARPs (arping -U, iputils or busybox).
 * IPv6 needs no command: see announceSysctls.
 */
export function announceVip(vip: ClaimedVip): string[] {
  const address = vip.cidr.split("/")[0];
  if (vip.announce !== true || ipFamily(address) !== "inet") return [];
  return [command("arping", "-q", "-U", "-c", "2", "-I", vip.dev, address)];
}
