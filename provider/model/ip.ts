import * as ipaddr from "ipaddr.js";

export type Family = "inet" | "inet6";

/** Family of a literal IP address; undefined for anything else (hostnames, "1.2.3.4;reboot", zone ids, CIDRs). */
export function ipFamily(value: string): Family | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(value)) return "inet";
  // ipaddr.js accepts zone ids (fe80::1%eth0); they are meaningless for a VIP and '%' has no business in a command.
  if (!value.includes("%") && ipaddr.IPv6.isValid(value)) return "inet6";
  return undefined;
}

// Ranges no VIP or real server can be in: they mean "any" or "this host", address a group, or never leave the link.
const UNUSABLE_RANGES: Record<string, string> = {
  unspecified: "an unspecified",
  loopback: "a loopback",
  multicast: "a multicast",
  linkLocal: "a link-local",
  broadcast: "a broadcast",
};

/** Why a literal address cannot be `usableAs` (a VIP or RIP, a DIP...), or undefined when it can. */
export function unusableAddress(value: string, usableAs = "a VIP or real server address"): string | undefined {
  const address = ipaddr.parse(value);
  if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress()) {
    // ipvsadm, iproute2 and the kernel treat it as IPv6: it would never match the IPv4 packets it names.
    return `is an IPv4-mapped IPv6 address: write the IPv4 address ${address.toIPv4Address().toString()}`;
  }
  const range = UNUSABLE_RANGES[address.range()];
  return range === undefined ? undefined : `is ${range} address, not usable as ${usableAs}`;
}

/** The text ipvsadm and iproute2 print for an address, so desired and live values compare equal. */
export function canonicalIp(value: string): string {
  const address = ipaddr.parse(value);
  return address instanceof ipaddr.IPv6 ? address.toRFC5952String() : address.toString();
}

/**
 * Whether two literal addresses are one address however they are written: "2001:db8::1" and "2001:0db8:0:0::1",
 * an IPv4-mapped IPv6 address and its IPv4 address. False when either is not an IP literal (a host name).
 */
export function sameAddress(a: string, b: string): boolean {
  if (ipFamily(a) === undefined || ipFamily(b) === undefined) return false;
  const [x, y] = [ipaddr.process(a), ipaddr.process(b)];
  return x.kind() === y.kind() && x.toNormalizedString() === y.toNormalizedString();
}

/** "a.b.c.d/n" or "x::y/n" with a family; undefined when not a CIDR. */
export function cidrFamily(value: string): Family | undefined {
  const slash = value.indexOf("/");
  if (slash < 0 || !/^\d{1,3}$/.test(value.slice(slash + 1))) return undefined;
  const family = ipFamily(value.slice(0, slash));
  const prefix = Number(value.slice(slash + 1));
  return family && prefix <= hostPrefixLength(family) ? family : undefined;
}

/** A CIDR as `ip route` lists a route's destination: "default" for /0, the network address, no length for a host. */
export function routeDestination(cidr: string): string {
  const [address, length] = ipaddr.parseCIDR(cidr);
  if (length === 0) return "default";
  const network = canonicalIp(
    address instanceof ipaddr.IPv6
      ? ipaddr.IPv6.networkAddressFromCIDR(cidr).toString()
      : ipaddr.IPv4.networkAddressFromCIDR(cidr).toString(),
  );
  return length === hostPrefixLength(ipFamily(network) ?? "inet") ? network : `${network}/${length}`;
}

/** A dotted IPv4 netmask with contiguous ones (255.255.255.0, not 255.0.255.0). */
export function isIpv4Netmask(value: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(value) && ipaddr.IPv4.parse(value).prefixLengthFromSubnetMask() !== null;
}

export function hostPrefixLength(family: Family): number {
  return family === "inet" ? 32 : 128;
}

/** "addr:port" as ipvsadm prints it: IPv6 addresses in brackets. */
export function hostPort(address: string, port: number): string {
  return address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`;
}
