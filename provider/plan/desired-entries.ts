import { canonicalIp, hostPrefixLength } from "../model/ip";
import { ServiceIdentityFields, serviceVipFields } from "../schemas/service-identity";
import { VirtualServiceInputs } from "../schemas/virtual-service";
import { MarkRule } from "../model/mark-rule";
import { IpvsService, serviceKey, ServiceId } from "../model/ipvs";
import { portRange } from "../schemas/fwmark-match";

// Validated inputs -> the entries as the kernel would list them, so they compare with live facts directly.

export function desiredServiceId(identity: ServiceIdentityFields): ServiceId {
  if (identity.fwmark !== undefined) return { fwmark: identity.fwmark, family: identity.family ?? "inet" };
  if (identity.protocol === undefined || identity.address === undefined || identity.port === undefined) {
    throw new Error("service identity needs protocol, address and port, or fwmark");
  }
  return { protocol: identity.protocol, address: canonicalIp(identity.address), port: identity.port };
}

export function desiredService(inputs: VirtualServiceInputs): IpvsService {
  const id = desiredServiceId(inputs);
  const service: IpvsService = {
    id,
    scheduler: inputs.scheduler,
    flags: [...new Set(inputs.schedulerFlags)].sort(),
    onePacket: inputs.onePacket,
  };
  if (inputs.persistence) {
    service.persistence = { timeoutSeconds: inputs.persistence.timeoutSeconds };
    const netmask = normalizeNetmask(inputs.persistence.netmask);
    if (netmask !== undefined) service.persistence.netmask = netmask;
  }
  return service;
}

/** The VIPs a service serves: its address, or what its fwmark matches (none when it has no match). */
export function serviceVips(identity: ServiceIdentityFields): string[] {
  return [...new Set(serviceVipFields(identity).map((vip) => canonicalIp(vip.address)))];
}

/** A fwmark service's mark rules: one per VIP and port (range) of its match, as iptables lists them. */
export function desiredMarkRules(identity: ServiceIdentityFields): MarkRule[] {
  const id = desiredServiceId(identity);
  const match = identity.match;
  if (!("fwmark" in id) || match === undefined) return [];
  const ports = [
    ...new Set(
      match.ports.map((spec) => {
        const [low, high] = portRange(spec) ?? [];
        if (low === undefined) throw new Error(`fwmark match: bad port ${String(spec)}`);
        return low === high ? String(low) : `${low}:${high}`;
      }),
    ),
  ];
  const owner = serviceKey(id);
  return serviceVips(identity).flatMap((vip) =>
    ports.map((range) => ({ owner, vip, protocol: match.protocol, ports: range, mark: id.fwmark })),
  );
}

// ipvsadm prints no -M for the host mask, so it is dropped here too.
function normalizeNetmask(netmask: string | number | undefined): string | undefined {
  if (netmask === undefined) return undefined;
  const text = String(netmask);
  return text === "255.255.255.255" || text === String(hostPrefixLength("inet6")) ? undefined : text;
}
