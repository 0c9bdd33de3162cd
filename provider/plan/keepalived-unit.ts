import {
  KEEPALIVED_CONF,
  KEEPALIVED_DROPIN,
  KEEPALIVED_DROPIN_DIR,
  KEEPALIVED_ENABLED_MARKER,
  KEEPALIVED_UNIT_NAME,
} from "../model/host-paths";
import { renderKeepalivedDropIn } from "../render/units";
import { planFiles, pruneEmptyDirs } from "./files";
import { Step } from "./step";
import { command } from "../model/shell";

// The distribution's keepalived unit, as an HA pair runs it (VRRP only; checked services have their own: checker.ts).

/** The unit as the host has it. */
export interface KeepalivedUnitFacts {
  conf: string | null;
  dropIn: string | null;
  enabled: boolean;
  active: boolean;
  enabledByUs: boolean;
}

/**
 * Our drop-in, the unit enabled (marked when we enabled it, so that removal disables it again), then started, or
 * reloaded when `changed`. A running keepalived takes a new drop-in (--vrrp) at its next start: a restart would move
 * the VIPs.
 */
export function planKeepalivedUnit(live: KeepalivedUnitFacts, changed: boolean): Step[] {
  const dropIn = planFiles([{ path: KEEPALIVED_DROPIN, content: renderKeepalivedDropIn() }], {
    [KEEPALIVED_DROPIN]: live.dropIn,
  });
  return [
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

/**
 * keepalived stopped, disabled if we enabled it, `files` (their live content by path, then `pruned` folders),
 * keepalived.conf, our marker and the drop-in removed.
 */
export function planKeepalivedUnitRemoval(
  live: KeepalivedUnitFacts,
  files: Record<string, string | null> = {},
  pruned: string[] = [],
): Step[] {
  const removed = {
    ...files,
    [KEEPALIVED_CONF]: live.conf,
    [KEEPALIVED_ENABLED_MARKER]: live.enabledByUs ? "" : null,
    [KEEPALIVED_DROPIN]: live.dropIn,
  };
  return [
    ...(live.active ? [command("systemctl", "stop", KEEPALIVED_UNIT_NAME)] : []),
    ...(live.enabledByUs && live.enabled ? [command("systemctl", "disable", "--quiet", KEEPALIVED_UNIT_NAME)] : []),
    ...planFiles(
      Object.keys(removed).map((path) => ({ path, content: null })),
      removed,
    ),
    ...(pruned.length > 0 ? [pruneEmptyDirs(pruned)] : []),
    ...(live.dropIn === null ? [] : [pruneEmptyDirs([KEEPALIVED_DROPIN_DIR]), command("systemctl", "daemon-reload")]),
  ];
}
