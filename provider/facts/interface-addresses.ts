import { quote } from "../model/shell";
import { Fact } from "./fact";

export interface InterfaceAddress {
  family: "inet" | "inet6";
  /** "203.0.113.101/32" */
  cidr: string;
}

interface IpAddrJson {
  addr_info?: { family?: string; local?: string; prefixlen?: number }[];
}

/** Addresses from `ip -j addr show dev X`; empty output (no such device) means none. */
export function parseInterfaceAddresses(stdout: string): InterfaceAddress[] {
  if (stdout.trim() === "") return [];
  const links = JSON.parse(stdout) as IpAddrJson[];
  return links.flatMap((link) =>
    (link.addr_info ?? [])
      .filter((info) => (info.family === "inet" || info.family === "inet6") && info.local !== undefined)
      .map((info) => ({ family: info.family as "inet" | "inet6", cidr: `${info.local}/${info.prefixlen}` })),
  );
}

export function interfaceAddressesFact(dev: string): Fact<InterfaceAddress[]> {
  return { command: `ip -j addr show dev ${quote(dev)} 2>/dev/null || true`, parse: parseInterfaceAddresses };
}
