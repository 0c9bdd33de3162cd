import { ipFamily, hostPrefixLength } from "../schemas/ip";
import { HaPairInputs } from "../schemas/haPair";
import { header } from "./header";

export type PairRole = "primary" | "backup";

// The line that ties a keepalived.conf to one pair, so a second pair on the same host is refused, not merged.
const PAIR_MARKER = "# lvs-pulumi HA pair: ";

function pairMarker(pairId: string): string {
  return `${PAIR_MARKER}${pairId}\n`;
}

/** The pair a keepalived.conf was rendered for; undefined when it has no marker (not ours). */
export function markedPair(conf: string): string | undefined {
  return conf
    .split("\n")
    .find((line) => line.startsWith(PAIR_MARKER))
    ?.slice(PAIR_MARKER.length);
}

/**
 * keepalived.conf for one member. IPv4 and IPv6 VIPs need one VRRP instance per family (VRRPv3 for IPv6); a sync
 * group makes them fail over together. The IPVS table itself is not keepalived's: lvs-pulumi writes it on both
 * directors, keepalived only moves the addresses and runs the connection sync daemon.
 */
export function renderKeepalivedConf(pairId: string, inputs: HaPairInputs, role: PairRole): string {
  const member = inputs[role];
  const families = (["inet", "inet6"] as const).filter((family) =>
    inputs.vips.some((vip) => ipFamily(vip.address) === family),
  );
  const instances = families.map((family) => ({ family, name: instanceName(inputs.virtualRouterId, family) }));
  const sync = inputs.connectionSync;
  const globals = sync.enabled
    ? [
        "global_defs {",
        // The sync daemon follows the first instance: master on the VRRP master, backup on the backup.
        `    lvs_sync_daemon ${sync.interface ?? member.interface} ${instances[0].name} id ${sync.syncId ?? inputs.virtualRouterId}`,
        "}",
        "",
      ]
    : [];
  const group =
    instances.length > 1
      ? [
          `vrrp_sync_group LVS_PULUMI_${inputs.virtualRouterId} {`,
          "    group {",
          ...instances.map((i) => `        ${i.name}`),
          "    }",
          "}",
          "",
        ]
      : [];
  const blocks = instances.flatMap(({ family, name }) => [
    `vrrp_instance ${name} {`,
    // Without preemption both start as backup, so a returning primary does not take the VIPs back.
    `    state ${inputs.preempt && role === "primary" ? "MASTER" : "BACKUP"}`,
    `    interface ${member.interface}`,
    `    virtual_router_id ${inputs.virtualRouterId}`,
    `    priority ${member.priority}`,
    `    advert_int ${inputs.advertIntervalSeconds}`,
    ...(family === "inet6" ? ["    version 3"] : []),
    ...(inputs.preempt ? [] : ["    nopreempt"]),
    ...unicast(inputs, role, family),
    "    virtual_ipaddress {",
    ...inputs.vips
      .filter((vip) => ipFamily(vip.address) === family)
      .map((vip) => `        ${vip.address}/${hostPrefixLength(family)} dev ${vip.interface ?? member.interface}`),
    "    }",
    "}",
    "",
  ]);
  return `${header()}${pairMarker(pairId)}\n${[...globals, ...group, ...blocks].join("\n")}`;
}

/** Unicast adverts to the peer only, and adverts from anyone but the peer ignored (`check_unicast_src`). */
function unicast(inputs: HaPairInputs, role: PairRole, family: "inet" | "inet6"): string[] {
  const own = inputs[role].addresses?.find((address) => ipFamily(address) === family);
  const peer = inputs[role === "primary" ? "backup" : "primary"].addresses?.find((a) => ipFamily(a) === family);
  if (!own || !peer) return [];
  return [`    unicast_src_ip ${own}`, "    unicast_peer {", `        ${peer}`, "    }", "    check_unicast_src"];
}

export function instanceName(virtualRouterId: number, family: "inet" | "inet6"): string {
  return `LVS_PULUMI_${virtualRouterId}_${family === "inet" ? "V4" : "V6"}`;
}
