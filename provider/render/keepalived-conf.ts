import { ipFamily, hostPrefixLength } from "../model/ip";
import { HaPairInputs } from "../schemas/ha-pair";
import { header } from "./header";
import { renderGlobalDefs } from "./checked-services";
import { KEEPALIVED_SCRIPT_DIR } from "../model/host-paths";

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

/** A track or notify command as the root-only /bin/sh script keepalived.conf names by path. */
export interface KeepalivedScript {
  path: string;
  content: string;
}

const NOTIFY_KEYWORDS = {
  master: "notify_master",
  backup: "notify_backup",
  fault: "notify_fault",
  stop: "notify_stop",
  any: "notify",
} as const;

type NotifyState = keyof typeof NOTIFY_KEYWORDS;

function notifyHooks(inputs: HaPairInputs): [NotifyState, string][] {
  return (Object.keys(NOTIFY_KEYWORDS) as NotifyState[]).flatMap((state) => {
    const command = inputs.notify?.[state];
    return command === undefined ? [] : [[state, command] as [NotifyState, string]];
  });
}

const trackScriptPath = (dir: string, index: number) => `${dir}/track-${index}.sh`;
const notifyScriptPath = (dir: string, state: NotifyState) => `${dir}/notify-${state}.sh`;

/**
 * The scripts a member's keepalived runs, in `dir`. A command never goes into keepalived.conf (whose quoting and
 * `$` substitution differ from the shell's): it is the body of a /bin/sh script, exactly as written.
 */
export function renderKeepalivedScripts(inputs: HaPairInputs, dir = KEEPALIVED_SCRIPT_DIR): KeepalivedScript[] {
  const body = (command: string) => `#!/bin/sh\n${header()}${command}\n`;
  return [
    ...inputs.trackScripts.map((script, index) => ({
      path: trackScriptPath(dir, index),
      content: body(script.command),
    })),
    ...notifyHooks(inputs).map(([state, command]) => ({ path: notifyScriptPath(dir, state), content: body(command) })),
  ];
}

/**
 * keepalived.conf for one member, naming its scripts in `scriptDir`. IPv4 and IPv6 VIPs need one VRRP instance per
 * family (VRRPv3 for IPv6); a sync group makes them fail over together (and carries the notify hooks, so they run
 * once per change). The IPVS table itself is not keepalived's: lvs-pulumi writes it on both directors, keepalived
 * only moves the addresses and runs the connection sync daemon.
 */
export function renderKeepalivedConf(
  pairId: string,
  inputs: HaPairInputs,
  role: PairRole,
  scriptDir = KEEPALIVED_SCRIPT_DIR,
  mode: ConfMode = "declared",
): string {
  const member = inputs[role];
  const families = (["inet", "inet6"] as const).filter((family) =>
    inputs.vips.some((vip) => ipFamily(vip.address) === family),
  );
  const instances = families.map((family) => ({ family, name: instanceName(inputs.virtualRouterId, family) }));
  const sync = inputs.connectionSync;
  const globals = [
    ...renderGlobalDefs(
      // The sync daemon follows the first instance: master on the VRRP master, backup on the backup.
      sync.enabled
        ? [
            `    lvs_sync_daemon ${sync.interface ?? member.interface} ${instances[0].name} id ${sync.syncId ?? inputs.virtualRouterId}`,
          ]
        : [],
    ),
    "",
  ];
  const trackNames = inputs.trackScripts.map((_, index) => `LVS_PULUMI_${inputs.virtualRouterId}_TRACK_${index}`);
  const scripts = inputs.trackScripts.flatMap((script, index) => [
    `vrrp_script ${trackNames[index]} {`,
    `    script "${trackScriptPath(scriptDir, index)}"`,
    `    interval ${script.intervalSeconds}`,
    ...(script.timeoutSeconds !== undefined ? [`    timeout ${script.timeoutSeconds}`] : []),
    `    fall ${script.fall}`,
    `    rise ${script.rise}`,
    ...(script.weight !== undefined ? [`    weight ${script.weight}`] : []),
    "}",
    "",
  ]);
  const notify = notifyHooks(inputs).map(
    ([state]) => `    ${NOTIFY_KEYWORDS[state]} "${notifyScriptPath(scriptDir, state)}"`,
  );
  const grouped = instances.length > 1;
  const group = grouped
    ? [
        `vrrp_sync_group LVS_PULUMI_${inputs.virtualRouterId} {`,
        "    group {",
        ...instances.map((i) => `        ${i.name}`),
        "    }",
        ...notify,
        "}",
        "",
      ]
    : [];
  // preempt_delay only works from an initial BACKUP state: with it the primary starts as BACKUP too.
  const takeOver = mode === "take over";
  const master = takeOver || (inputs.preempt && inputs.preemptDelaySeconds === undefined && role === "primary");
  const priority = takeOver ? ADDRESS_OWNER_PRIORITY : mode === "hold" ? HOLD_PRIORITY : member.priority;
  const preempt = takeOver || inputs.preempt;
  const preemptDelay = takeOver ? undefined : inputs.preemptDelaySeconds;
  const blocks = instances.flatMap(({ family, name }) => [
    `vrrp_instance ${name} {`,
    // Without preemption both start as backup, so a returning primary does not take the VIPs back.
    `    state ${master ? "MASTER" : "BACKUP"}`,
    `    interface ${member.interface}`,
    `    virtual_router_id ${inputs.virtualRouterId}`,
    `    priority ${priority}`,
    `    advert_int ${inputs.advertIntervalSeconds}`,
    ...(family === "inet6" ? ["    version 3"] : []),
    ...(preempt ? [] : ["    nopreempt"]),
    ...(preemptDelay !== undefined ? [`    preempt_delay ${preemptDelay}`] : []),
    ...gratuitousArp(inputs),
    ...authentication(inputs, family),
    ...unicast(inputs, role, family),
    ...block("track_interface", member.trackInterfaces ?? []),
    ...block("track_script", trackNames),
    ...(grouped ? [] : notify),
    "    virtual_ipaddress {",
    ...inputs.vips
      .filter((vip) => ipFamily(vip.address) === family)
      .map((vip) => `        ${vip.address}/${hostPrefixLength(family)} dev ${vip.interface ?? member.interface}`),
    "    }",
    "}",
    "",
  ]);
  return `${header()}${pairMarker(pairId)}\n${[...globals, ...scripts, ...group, ...blocks].join("\n")}`;
}

/**
 * How a member's keepalived.conf departs from the declared one, for a transition:
 * - "take over": the member holding the VIPs moves to a new VRRP instance (another router id or interface) without a
 *   gap: as address owner (priority 255) a new instance is master at once, where any other waits 3 adverts with the
 *   VIPs down;
 * - "hold": the live member while the other is known down keeps the VIPs when that one returns with a table that
 *   missed changes (priority 254, above any declared one), until an apply converges it and declares both again.
 */
export type ConfMode = "declared" | "take over" | "hold";

const ADDRESS_OWNER_PRIORITY = 255;
const HOLD_PRIORITY = 254;

/** An instance sub-block listing names; nothing when there are none. */
function block(keyword: string, names: string[]): string[] {
  return names.length === 0 ? [] : [`    ${keyword} {`, ...names.map((name) => `        ${name}`), "    }"];
}

/** After becoming master: keepalived sends the same rounds as unsolicited NAs for IPv6 VIPs. */
function gratuitousArp(inputs: HaPairInputs): string[] {
  const garp = inputs.gratuitousArp ?? {};
  const settings: [string, number | undefined][] = [
    ["garp_master_delay", garp.masterDelaySeconds],
    ["garp_master_repeat", garp.masterRepeat],
    ["garp_master_refresh", garp.masterRefreshSeconds],
    ["garp_master_refresh_repeat", garp.masterRefreshRepeat],
  ];
  return settings.flatMap(([keyword, value]) => (value === undefined ? [] : [`    ${keyword} ${value}`]));
}

/** VRRPv2 (IPv4) only; the schema refuses it for a pair with IPv6 VIPs. */
function authentication(inputs: HaPairInputs, family: "inet" | "inet6"): string[] {
  const auth = inputs.authentication;
  if (!auth || family !== "inet") return [];
  return ["    authentication {", `        auth_type ${auth.type}`, `        auth_pass ${auth.password}`, "    }"];
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
