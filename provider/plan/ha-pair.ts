import { createHash } from "crypto";
import { CheckedRealServer } from "../facts/checker-state";
import { IpvsTable } from "../model/ipvs";
import {
  ConfMode,
  KeepalivedScript,
  markedPair,
  PairRole,
  renderKeepalivedConf,
  renderKeepalivedScripts,
} from "../render/keepalived-conf";
import { KEEPALIVED_CONFIG_TEST_DIR, KEEPALIVED_CONF, KEEPALIVED_SCRIPT_DIR } from "../model/host-paths";
import { anyCheckedServiceEnabled, isLegacyCheckedOnlyConf, keepalivedRunsChecked } from "./checked-services";
import { HaPairInputs } from "../schemas/ha-pair";
import { canonicalIp, hostPort } from "../model/ip";
import { planKeepalivedUnit, planKeepalivedUnitRemoval } from "./keepalived-unit";
import { planFiles } from "./files";
import { OwnedFile, Step, stepRun } from "./step";
import { command } from "../model/shell";

/** Made of the pair's identity only (VRID, members' host and port): a new user or jump host is the same pair. */
export function haPairId(inputs: HaPairInputs): string {
  const member = (m: HaPairInputs["primary"]) => hostPort(m.connection.host, m.connection.port);
  return `ha-pair:${inputs.virtualRouterId}:${member(inputs.primary)}+${member(inputs.backup)}`;
}

/**
 * The entries (services, real servers) in which two directors' IPVS tables differ, by key: a member back from an
 * outage takes the VIPs only when this is empty against the member that served through it.
 */
export function tableDifferences(a: IpvsTable, b: IpvsTable): string[] {
  const differing = (x: Record<string, unknown>, y: Record<string, unknown>) =>
    [...new Set([...Object.keys(x), ...Object.keys(y)])].filter(
      (key) => JSON.stringify(x[key]) !== JSON.stringify(y[key]),
    );
  return [...differing(a.services, b.services), ...differing(a.destinations, b.destinations)].sort();
}

/**
 * What keepalived matches a running VRRP instance by on reload (router id, interface, unicast or not): when it
 * differs, the reload ends the old instance (its VIPs go) and starts another, which stays backup for 3 adverts.
 */
export function vrrpInstanceIdentity(inputs: HaPairInputs, role: PairRole): string {
  const unicast = inputs.primary.addresses !== undefined && inputs.backup.addresses !== undefined;
  return JSON.stringify([inputs.virtualRouterId, inputs[role].interface, unicast ? inputs[role].addresses : null]);
}

/**
 * What keepalived runs with on a member, short enough for the state: a hash of its config, and whether it runs.
 * Refresh reads it live; diff compares it with what the inputs render, so a hand edit or a stopped keepalived shows
 * as a change that the next apply repairs.
 */
export function keepalivedFingerprint(conf: string | null, active: boolean): string {
  if (conf === null) return "absent";
  // The VRRP password stays out of the state, even hashed (8 characters are few to try).
  const hashed = conf.replace(/^(\s*auth_pass ).*$/gm, "$1[secret]");
  return `sha256:${createHash("sha256").update(hashed).digest("hex").slice(0, 16)}${active ? "" : " stopped"}`;
}

/** The fingerprint recorded for a member the operator listed as down: nothing was read from it. */
export const KNOWN_DOWN = "known down";

/**
 * The fingerprints of both members once the inputs are applied; with member `down` known down, the other holds the
 * VIPs (ConfMode "hold").
 */
export function expectedKeepalived(inputs: HaPairInputs, down?: PairRole): Record<PairRole, string> {
  const id = haPairId(inputs);
  const fingerprint = (role: PairRole) =>
    role === down
      ? KNOWN_DOWN
      : keepalivedFingerprint(renderKeepalivedConf(id, inputs, role, undefined, down ? "hold" : "declared"), true);
  return { primary: fingerprint("primary"), backup: fingerprint("backup") };
}

/** What a member's keepalived runs with: its keepalived.conf and the scripts that names. */
export interface KeepalivedConfig {
  conf: string;
  scripts: KeepalivedScript[];
}

/** A member's configuration with its scripts in `scriptDir` (the check dir stages a copy for `keepalived -t`). */
export function renderKeepalived(
  pairId: string,
  inputs: HaPairInputs,
  role: PairRole,
  scriptDir = KEEPALIVED_SCRIPT_DIR,
  mode: ConfMode = "declared",
): KeepalivedConfig {
  return {
    conf: renderKeepalivedConf(pairId, inputs, role, scriptDir, mode),
    scripts: renderKeepalivedScripts(inputs, scriptDir),
  };
}

export interface KeepalivedFacts {
  conf: string | null;
  dropIn: string | null;
  enabled: boolean;
  active: boolean;
  enabledByUs: boolean;
  /** Names in KEEPALIVED_SCRIPT_DIR. */
  scriptNames: string[];
  /** Names in KEEPALIVED_CHECKED_DIR: `*.conf` are checked services keepalived runs. */
  checkedNames: string[];
  /** Live content of the wanted scripts, by path. */
  scripts: Record<string, string | null>;
}

// keepalived.conf may hold the VRRP password; scripts run as root: neither is for other users to read or change.
function configFiles(config: KeepalivedConfig): OwnedFile[] {
  return [
    ...config.scripts.map((script) => ({ ...script, mode: "0700" })),
    { path: KEEPALIVED_CONF, content: config.conf, mode: "0600" },
  ];
}

/** The writes (scripts first, keepalived.conf last) and removals that make the host's files `config`. */
function configWrites(config: KeepalivedConfig, live: KeepalivedFacts): Step[] {
  const stale = live.scriptNames
    .map((name) => `${KEEPALIVED_SCRIPT_DIR}/${name}`)
    .filter((path) => !config.scripts.some((script) => script.path === path));
  return planFiles([...stale.map((path) => ({ path, content: null })), ...configFiles(config)], {
    ...Object.fromEntries(stale.map((path) => [path, ""])),
    ...live.scripts,
    [KEEPALIVED_CONF]: live.conf,
  });
}

/** Whether the host's keepalived files differ from `config` (then `keepalived -t` checks it before it lands). */
export function keepalivedConfigChanges(config: KeepalivedConfig, live: KeepalivedFacts): boolean {
  return configWrites(config, live).length > 0;
}

/**
 * `keepalived -t` on `staged` (rendered for KEEPALIVED_CONFIG_TEST_DIR), written there whole and removed again: a
 * configuration keepalived refuses (it exits non-zero on any warning: a missing interface, an insecure script)
 * fails this step with keepalived's own message, before anything it would replace is touched.
 */
export function keepalivedConfigTest(staged: KeepalivedConfig): Step {
  const conf = `${KEEPALIVED_CONFIG_TEST_DIR}/keepalived.conf`;
  const files = configFiles(staged).map((file) => (file.path === KEEPALIVED_CONF ? { ...file, path: conf } : file));
  const clean = command("rm", "-rf", KEEPALIVED_CONFIG_TEST_DIR);
  const digest = createHash("sha256").update(staged.conf).digest("hex").slice(0, 16);
  return {
    run: [
      clean,
      command("mkdir", "-p", "-m", "0700", KEEPALIVED_CONFIG_TEST_DIR),
      ...planFiles(files, {}).map(stepRun),
      `if ! ${command("keepalived", "-t", "-f", conf)}; then ${clean}; exit 1; fi`,
      clean,
    ].join("\n"),
    audit: `keepalived -t -f ${conf} (the new configuration, sha256:${digest}, staged and removed)`,
  };
}

/**
 * Why this host's keepalived.conf cannot become this pair's, or undefined when it can. `formerIds`: ids the same
 * pair had before an update (its member hosts written differently), whose config is ours too.
 */
export function keepalivedConfConflict(
  pairId: string,
  conf: string | null,
  formerIds: string[] = [],
): string | undefined {
  if (conf === null) return undefined;
  const owner = markedPair(conf);
  // The director's checked services alone, as an older lvs-pulumi ran them: they move to the checker instance.
  if (isLegacyCheckedOnlyConf(conf)) return undefined;
  if (owner === undefined) return `${KEEPALIVED_CONF} exists and was not written by lvs-pulumi; move it away first`;
  if (owner !== pairId && !formerIds.includes(owner))
    return `${KEEPALIVED_CONF} belongs to HA pair ${owner}; a director serves one pair`;
  return undefined;
}

/**
 * Commands that make keepalived run `config`: check it with `keepalived -t` and write it when it differs, enable and
 * start keepalived when it is not, reload (SIGHUP: VIPs stay where they are) when it runs with another
 * keepalived.conf (a script keepalived runs afresh each time needs none).
 */
export function planKeepalived(
  pairId: string,
  config: KeepalivedConfig,
  staged: KeepalivedConfig,
  live: KeepalivedFacts,
  formerIds: string[] = [],
): Step[] {
  const conflict = keepalivedConfConflict(pairId, live.conf, formerIds);
  if (conflict) throw new Error(conflict);
  const writes = configWrites(config, live);
  return [
    ...(writes.length > 0 ? [keepalivedConfigTest(staged), ...writes] : []),
    ...planKeepalivedUnit(live, live.conf !== config.conf),
  ];
}

/** Stops keepalived (it takes its VIPs and sync daemon down with it), removes our config and scripts, disables what
 * we enabled. The director's checked services are not its business (their own keepalived runs them). */
export function planKeepalivedRemoval(pairId: string, live: KeepalivedFacts): Step[] {
  if (live.conf === null || markedPair(live.conf) !== pairId) return [];
  const scripts = Object.fromEntries(live.scriptNames.map((name) => [`${KEEPALIVED_SCRIPT_DIR}/${name}`, ""]));
  return planKeepalivedUnitRemoval(live, scripts, live.scriptNames.length === 0 ? [] : [KEEPALIVED_SCRIPT_DIR]);
}

/** The members' roles, in the order a first apply configures them (the primary starts as master). */
export const ROLES: PairRole[] = ["primary", "backup"];

/** What the pair resource records of its members. */
export interface HaPairState {
  /** The SSH host of the director holding the VIPs ("" when not exactly one does: both down, or split brain). */
  master: string;
  /** Per member: the fingerprint of the config keepalived runs with (see keepalivedFingerprint). */
  keepalived: Record<PairRole, string>;
}

/** A member's fingerprint in the stored outputs (`keepalived`, as any earlier version wrote them); "" when none. */
function recordedFingerprint(outputs: Record<string, unknown>, role: PairRole): string {
  const stored = outputs.keepalived;
  const value = stored && typeof stored === "object" ? Object.fromEntries(Object.entries(stored))[role] : undefined;
  return typeof value === "string" ? value : "";
}

/** One member as a refresh reads it: its keepalived.conf, whether keepalived runs, whether it holds the first VIP. */
export interface MemberReading {
  conf: string | null;
  active: boolean;
  holds: boolean;
}

/**
 * The pair's state from its members' readings (by ROLES; undefined: unreachable); undefined when neither has this
 * pair's config. An unreachable member keeps its `recorded` fingerprint, and the master is the member that answers
 * when it holds the VIPs: a refresh during the outage tells who serves.
 */
export function pairStateOf(
  inputs: HaPairInputs,
  members: (MemberReading | undefined)[],
  recorded: Record<string, unknown> = {},
): HaPairState | undefined {
  const id = haPairId(inputs);
  if (!members.some((m) => m !== undefined && m.conf !== null && markedPair(m.conf) === id)) return undefined;
  const holders = ROLES.filter((_, i) => members[i]?.holds).map((role) => inputs[role].connection.host);
  const fingerprint = (i: number) => {
    const member = members[i];
    return member ? keepalivedFingerprint(member.conf, member.active) : recordedFingerprint(recorded, ROLES[i]);
  };
  return {
    master: holders.length === 1 ? holders[0] : "",
    keepalived: { primary: fingerprint(0), backup: fingerprint(1) },
  };
}

/** Whether `addresses` (as `ip -j addr` lists them) hold `vip`, however either writes it. */
export function holdsVip(addresses: { cidr: string }[], vip: string): boolean {
  return addresses.some((a) => canonicalIp(a.cidr.split("/")[0]) === canonicalIp(vip));
}

/**
 * Whether a member's keepalived runs checked services, as an older lvs-pulumi configured it: its keepalived.conf
 * includes them (`checkedNames`: the names in KEEPALIVED_CHECKED_DIR) and one is enabled.
 */
export function runsCheckedServices(conf: string | null, checkedNames: string[]): boolean {
  return keepalivedRunsChecked(conf) && anyCheckedServiceEnabled(checkedNames);
}

/** The services (keys) of the real servers keepalived's checkers hold (checker state by destination key). */
export function checkedServiceKeys(checker: Record<string, CheckedRealServer>): string[] {
  return [...new Set(Object.keys(checker).map((key) => key.slice(0, key.indexOf("/"))))];
}

/** In which order an apply configures the members, given who holds the VIPs now (`holders`: SSH hosts). */
export interface PairOrder {
  /** The member holding the VIPs alone; undefined when none or both do. */
  holder: PairRole | undefined;
  other: PairRole | undefined;
  /** The holder runs its hold configuration (the other was known down): the other goes first and gets them back. */
  releasing: boolean;
  order: PairRole[];
  /** The holder's VRRP instance changes: it goes through the take-over configuration first. */
  takeOver: boolean;
}

/**
 * The member holding the VIPs is configured first (a reload keeps them where they are), unless it holds them for a
 * member that was down (`held`: it runs the hold configuration), which is then configured first. Nobody holding
 * them: the primary first.
 */
export function pairOrder(
  inputs: HaPairInputs,
  previous: HaPairInputs | undefined,
  held: Partial<Record<PairRole, boolean>>,
  holders: string[],
): PairOrder {
  const holder = holders.length === 1 ? ROLES.find((role) => inputs[role].connection.host === holders[0]) : undefined;
  const releasing = holder !== undefined && held[holder] === true;
  const other = holder === undefined ? undefined : ROLES.find((role) => role !== holder)!;
  const order: PairRole[] = holder === undefined ? ROLES : releasing ? [other!, holder] : [holder, other!];
  const takeOver =
    holder !== undefined && previous !== undefined && !releasing
      ? vrrpInstanceIdentity(previous, holder) !== vrrpInstanceIdentity(inputs, holder)
      : false;
  return { holder, other, releasing, order, takeOver };
}

/**
 * The state recorded while `holder` keeps the VIPs for `other` (their tables differ): the holder still runs its hold
 * configuration, the other the declared one.
 */
export function stillHeldState(inputs: HaPairInputs, holder: PairRole, other: PairRole): HaPairState {
  const fingerprints = expectedKeepalived(inputs, other);
  return {
    master: inputs[holder].connection.host,
    keepalived: { ...expectedKeepalived(inputs), [holder]: fingerprints[holder] },
  };
}

/**
 * How long VRRP gets to settle on one holder after a change. A backup that does not hear the master takes the VIPs
 * only after its master-down interval (3 adverts and a skew): one holder counts once it has lasted that long
 * (`masterDownMs`), or a pair whose members cannot hear each other passes. Past `deadlineMs` (from the start) only a
 * holder still settling gets its master-down interval to finish. A returning primary with a preempt delay waits
 * that long before it takes the VIPs back.
 */
export function vrrpSettleTimes(inputs: HaPairInputs): { masterDownMs: number; deadlineMs: number } {
  const masterDownMs = (3 * inputs.advertIntervalSeconds + 1) * 1000;
  const preemptDelayMs = (inputs.preemptDelaySeconds ?? 0) * 1000;
  return { masterDownMs, deadlineMs: (4 * inputs.advertIntervalSeconds + 10) * 1000 + masterDownMs + preemptDelayMs };
}

/**
 * Why VRRP did not settle on one holder (`expected` when given, either member otherwise): none means keepalived is not
 * running; both means the members do not hear each other.
 */
export function unsettledReason(inputs: HaPairInputs, holders: string[], expected: string | undefined): string {
  const id = haPairId(inputs);
  const vip = inputs.vips[0].address;
  return holders.length === 0
    ? `HA pair ${id}: no director holds ${vip}; see \`journalctl -u keepalived\` on both`
    : holders.length === 1
      ? `HA pair ${id}: ${holders[0]} holds ${vip}, not ${expected} ` +
        `(is keepalived running on ${expected}? see \`journalctl -u keepalived\`)`
      : `HA pair ${id}: both directors hold ${vip}: VRRP adverts (protocol 112) do not reach the ` +
        `peer on ${inputs.primary.interface}/${inputs.backup.interface} (filtered multicast, another virtual_router_id?)`;
}
