import {
  KEEPALIVED_CONF,
  KEEPALIVED_DROPIN,
  KEEPALIVED_DROPIN_DIR,
  KEEPALIVED_ENABLED_MARKER,
  KEEPALIVED_UNIT_NAME,
} from "../render/paths";
import { renderKeepalivedDropIn } from "../render/units";
import { planFiles, pruneEmptyDirs } from "./files";
import { command } from "./shell";

export interface KeepalivedFacts {
  conf: string | null;
  dropIn: string | null;
  enabled: boolean;
  active: boolean;
  enabledByUs: boolean;
}

/** Why this host's keepalived.conf cannot become this pair's, or undefined when it can. */
export function keepalivedConfConflict(pairId: string, conf: string | null): string | undefined {
  if (conf === null) return undefined;
  const owner = /^# lvs-pulumi HA pair: (.*)$/m.exec(conf)?.[1];
  if (owner === undefined) return `${KEEPALIVED_CONF} exists and was not written by lvs-pulumi; move it away first`;
  if (owner !== pairId) return `${KEEPALIVED_CONF} belongs to HA pair ${owner}; a director serves one pair`;
  return undefined;
}

/**
 * Commands that make keepalived run `conf`: write it when it differs, enable and start keepalived when it is not,
 * reload (SIGHUP: VIPs stay where they are) when it runs with another configuration.
 */
export function planKeepalived(pairId: string, conf: string, live: KeepalivedFacts): string[] {
  const conflict = keepalivedConfConflict(pairId, live.conf);
  if (conflict) throw new Error(conflict);
  const changed = live.conf !== conf;
  const dropIn = renderKeepalivedDropIn();
  return [
    ...planFiles([{ path: KEEPALIVED_CONF, content: conf }], { [KEEPALIVED_CONF]: live.conf }),
    ...(live.dropIn === dropIn
      ? []
      : [...planFiles([{ path: KEEPALIVED_DROPIN, content: dropIn }], {}), command("systemctl", "daemon-reload")]),
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
export function planKeepalivedRemoval(pairId: string, live: KeepalivedFacts): string[] {
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
