import { hostPort } from "./ip";
import { IpvsDestination, IpvsService, isFwmarkService, ServiceId } from "./ipvs";

// The argv pieces shared by live commands (quoted by the caller) and `ipvsadm -R` fragments.

const PROTOCOL_OPTIONS = { tcp: "-t", udp: "-u", sctp: "-q" } as const;
const FORWARDING_OPTIONS = { dr: "-g", nat: "-m", tun: "-i" } as const;

export function serviceArgs(id: ServiceId): string[] {
  if (isFwmarkService(id)) return id.family === "inet6" ? ["-f", String(id.fwmark), "-6"] : ["-f", String(id.fwmark)];
  return [PROTOCOL_OPTIONS[id.protocol], hostPort(id.address, id.port)];
}

export function serviceOptions(service: IpvsService): string[] {
  const args = ["-s", service.scheduler];
  if (service.flags.length > 0) args.push("-b", service.flags.join(","));
  if (service.persistence) {
    args.push("-p", String(service.persistence.timeoutSeconds));
    if (service.persistence.netmask !== undefined) args.push("-M", service.persistence.netmask);
  }
  if (service.onePacket) args.push("-o");
  return args;
}

export function destinationArgs(dest: IpvsDestination): string[] {
  return [...serviceArgs(dest.service), "-r", hostPort(dest.address, dest.port)];
}

export function destinationOptions(dest: IpvsDestination): string[] {
  const args: string[] = [FORWARDING_OPTIONS[dest.forwarding], "-w", String(dest.weight)];
  if (dest.tunnel && dest.tunnel.type !== "ipip") {
    args.push("--tun-type", dest.tunnel.type);
    if (dest.tunnel.port !== undefined) args.push("--tun-port", String(dest.tunnel.port));
    if (dest.tunnel.checksum !== undefined) args.push(`--tun-${dest.tunnel.checksum}`);
  }
  // -x/-y are always sent so that an edit back to 0 ("no threshold") takes effect.
  args.push("-x", String(dest.upperThreshold), "-y", String(dest.lowerThreshold));
  return args;
}
