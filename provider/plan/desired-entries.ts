import { canonicalIp, hostPrefixLength } from "../model/ip";
import { RealServerInputs } from "../schemas/real-server";
import { ServiceIdentityFields, serviceVipFields } from "../schemas/service-identity";
import { VirtualServiceInputs } from "../schemas/virtual-service";
import { SnatRule } from "../model/snat-rule";
import { MarkRule } from "../model/mark-rule";
import { IpvsDestination, IpvsService, serviceKey, ServiceId } from "../model/ipvs";
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

export function desiredDestination(inputs: RealServerInputs): IpvsDestination {
  const service = desiredServiceId(inputs.service);
  const port = "fwmark" in service ? 0 : (inputs.port ?? service.port);
  const dest: IpvsDestination = {
    service,
    address: canonicalIp(inputs.address),
    port,
    forwarding: inputs.forwarding === "fullnat" ? "nat" : inputs.forwarding,
    weight: inputs.weight,
    upperThreshold: inputs.upperThreshold,
    lowerThreshold: inputs.lowerThreshold,
  };
  // ipvsadm -Sn prints --tun-type ipip for every tunnel destination.
  if (dest.forwarding === "tun") dest.tunnel = { type: "ipip" };
  return dest;
}

/** fullnat only: the SNAT rule that makes replies come back through the director. */
export function desiredSnatRule(inputs: RealServerInputs): SnatRule | undefined {
  const service = desiredServiceId(inputs.service);
  if (inputs.forwarding !== "fullnat" || inputs.snatSource === undefined || "fwmark" in service) return undefined;
  return {
    vip: service.address,
    port: service.port,
    rip: canonicalIp(inputs.address),
    toSource: canonicalIp(inputs.snatSource),
  };
}
