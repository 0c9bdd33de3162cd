import { createHash } from "crypto";
import { markedPair, PairRole, renderKeepalivedConf } from "../render/keepalivedConf";
import {
  KEEPALIVED_CONF,
  KEEPALIVED_DROPIN,
  KEEPALIVED_DROPIN_DIR,
  KEEPALIVED_ENABLED_MARKER,
  KEEPALIVED_UNIT_NAME,
} from "../render/paths";
import { renderKeepalivedDropIn } from "../render/units";
import { hostKey } from "../schemas/connection";
import { HaPairInputs } from "../schemas/haPair";
import { hostPort } from "../schemas/ip";
import { planFiles, pruneEmptyDirs } from "./files";
import { Step } from "./script";
import { command } from "./shell";

/** Made of the pair's identity only (VRID, members' host and port): a new user or jump host is the same pair. */
export function haPairId(inputs: HaPairInputs): string {
  const member = (m: HaPairInputs["primary"]) => hostPort(m.connection.host, m.connection.port);
  return `ha-pair:${inputs.virtualRouterId}:${member(inputs.primary)}+${member(inputs.backup)}`;
}

/**
 * The pair as its members are: VRID and each member's host key, however the hosts are written. Decides replacement
 * (runtime/diff.ts); haPairId stays as written, since it marks the keepalived.conf already on the members.
 */
export function haPairKey(inputs: HaPairInputs): string {
  return `${inputs.virtualRouterId}:${hostKey(inputs.primary.connection)}+${hostKey(inputs.backup.connection)}`;
}

/**
 * What keepalived runs with on a member, short enough for the state: a hash of its config, and whether it runs.
 * Refresh reads it live; diff compares it with what the inputs render, so a hand edit or a stopped keepalived shows
 * as a change that the next apply repairs.
 */
export function keepalivedFingerprint(conf: string | null, active: boolean): string {
  if (conf === null) return "absent";
  return `sha256:${createHash("sha256").update(conf).digest("hex").slice(0, 16)}${active ? "" : " stopped"}`;
}

/** The fingerprints of both members once the inputs are applied. */
export function expectedKeepalived(inputs: HaPairInputs): Record<PairRole, string> {
  const id = haPairId(inputs);
  return {
    primary: keepalivedFingerprint(renderKeepalivedConf(id, inputs, "primary"), true),
    backup: keepalivedFingerprint(renderKeepalivedConf(id, inputs, "backup"), true),
  };
}

export interface KeepalivedFacts {
  conf: string | null;
  dropIn: string | null;
  enabled: boolean;
  active: boolean;
  enabledByUs: boolean;
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
  if (owner === undefined) return `${KEEPALIVED_CONF} exists and was not written by lvs-pulumi; move it away first`;
  if (owner !== pairId && !formerIds.includes(owner))
    return `${KEEPALIVED_CONF} belongs to HA pair ${owner}; a director serves one pair`;
  return undefined;
}

/**
 * Commands that make keepalived run `conf`: write it when it differs, enable and start keepalived when it is not,
 * reload (SIGHUP: VIPs stay where they are) when it runs with another configuration.
 */
export function planKeepalived(pairId: string, conf: string, live: KeepalivedFacts, formerIds: string[] = []): Step[] {
  const conflict = keepalivedConfConflict(pairId, live.conf, formerIds);
  if (conflict) throw new Error(conflict);
  const changed = live.conf !== conf;
  const dropIn = planFiles([{ path: KEEPALIVED_DROPIN, content: renderKeepalivedDropIn() }], {
    [KEEPALIVED_DROPIN]: live.dropIn,
  });
  return [
    ...planFiles([{ path: KEEPALIVED_CONF, content: conf }], { [KEEPALIVED_CONF]: live.conf }),
    ...(dropIn.length > 0 ? [...dropIn, command("systemctl", "daemon-reload")] : []),
    ...(live.enabled
      ? []
      : [
          ...planFiles([{ path: KEEPALIVED_ENABLED_MARKER, content: "" }], {
            [KEEPALIVED_ENABLED_MARKER]: live.enabledByUs ? "" : null,
          }),
          command("systemctl", "enable", "--quiet", KEEPALIVED_UNIT_NAME),
        ]),
    ...(!live.active
      ? [command("systemctl", "start", KEEPALIVED_UNIT_NAME)]
      : changed
        ? [command("systemctl", "reload", KEEPALIVED_UNIT_NAME)]
        : []),
  ];
}

/** Stops keepalived (it takes its VIPs and sync daemon down with it), removes our config, disables what we enabled. */
export function planKeepalivedRemoval(pairId: string, live: KeepalivedFacts): Step[] {
  if (live.conf === null || keepalivedConfConflict(pairId, live.conf) !== undefined) return [];
  return [
    ...(live.active ? [command("systemctl", "stop", KEEPALIVED_UNIT_NAME)] : []),
    ...(live.enabledByUs && live.enabled ? [command("systemctl", "disable", "--quiet", KEEPALIVED_UNIT_NAME)] : []),
    ...planFiles(
      [
        { path: KEEPALIVED_CONF, content: null },
        { path: KEEPALIVED_ENABLED_MARKER, content: null },
        { path: KEEPALIVED_DROPIN, content: null },
      ],
      {
        [KEEPALIVED_CONF]: live.conf,
        [KEEPALIVED_ENABLED_MARKER]: live.enabledByUs ? "" : null,
        [KEEPALIVED_DROPIN]: live.dropIn,
      },
    ),
    ...(live.dropIn === null ? [] : [pruneEmptyDirs([KEEPALIVED_DROPIN_DIR]), command("systemctl", "daemon-reload")]),
  ];
}
