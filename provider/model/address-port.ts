import { canonicalIp, ipFamily } from "./ip";

/** Splits "198.51.100.1:80" or "[2001:db8::1]:80" as ipvsadm prints them. */
export function parseAddressPort(text: string): { address: string; port: number } {
  const match = /^\[([^\]]+)\]:(\d+)$/.exec(text) ?? /^([^:]+):(\d+)$/.exec(text);
  if (!match || ipFamily(match[1]) === undefined) throw new Error(`not an address:port: ${JSON.stringify(text)}`);
  return { address: canonicalIp(match[1]), port: Number(match[2]) };
}
