import { renderCheckerConf } from "../render/checked-services";
import { CHECKER_CONF, CHECKER_UNIT_NAME, KEEPALIVED_CHECKED_DIR, unitPath } from "../model/host-paths";
import { renderCheckerUnit } from "../render/units";
import { planFiles } from "./files";
import { Step } from "./step";
import { command } from "../model/shell";

// The checked services' own keepalived instance (render/units.ts: renderCheckerUnit).

/** The instance as the host has it. */
export interface CheckerFacts {
  conf: string | null;
  unit: string | null;
  enabled: boolean;
  active: boolean;
}

const UNIT_FILE = unitPath(CHECKER_UNIT_NAME);

function wantedFiles(live: CheckerFacts): Step[] {
  return planFiles(
    [
      { path: CHECKER_CONF, content: renderCheckerConf(KEEPALIVED_CHECKED_DIR), mode: "0600" },
      { path: UNIT_FILE, content: renderCheckerUnit() },
    ],
    { [CHECKER_CONF]: live.conf, [UNIT_FILE]: live.unit },
  );
}

/**
 * Its config and unit written, the unit enabled, then started; when it runs: reloaded when the checked files
 * `changed` (a reload diffs the old and new configuration, so entries of services that stay are kept), restarted with
 * `restart` (a service handed back is forgotten and its entries stay: --dont-release-ipvs) or when its unit changed.
 */
export function planChecker(live: CheckerFacts, { changed, restart }: { changed: boolean; restart: boolean }): Step[] {
  const files = wantedFiles(live);
  const unitChanged = live.unit !== renderCheckerUnit();
  const activation = !live.active
    ? "start"
    : restart || unitChanged
      ? "restart"
      : changed || files.length > 0
        ? "reload"
        : undefined;
  return [
    ...files,
    ...(unitChanged ? [command("systemctl", "daemon-reload")] : []),
    ...(live.enabled ? [] : [command("systemctl", "enable", "--quiet", CHECKER_UNIT_NAME)]),
    ...(activation ? [command("systemctl", activation, CHECKER_UNIT_NAME)] : []),
  ];
}

/** Stopped (the entries stay: the caller deletes those that go), disabled, its config and unit removed. */
export function planCheckerRemoval(live: CheckerFacts): Step[] {
  return [
    ...(live.active ? [command("systemctl", "stop", CHECKER_UNIT_NAME)] : []),
    ...(live.enabled ? [command("systemctl", "disable", "--quiet", CHECKER_UNIT_NAME)] : []),
    ...planFiles(
      [
        { path: CHECKER_CONF, content: null },
        { path: UNIT_FILE, content: null },
      ],
      { [CHECKER_CONF]: live.conf, [UNIT_FILE]: live.unit },
    ),
    ...(live.unit === null ? [] : [command("systemctl", "daemon-reload")]),
  ];
}
