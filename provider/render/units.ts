import { header } from "./header";
import {
  CHECKER_CHILD_PID_FILE,
  CHECKER_CONF,
  CHECKER_PID_FILE,
  IPVS_RESTORE_SCRIPT,
  IPVS_UNIT_NAME,
  REALSERVER_RESTORE_SCRIPT,
} from "../model/host-paths";

// Ordered after module loading and sysctls so that net.ipv4.vs.* and tunl0 exist and are set when entries return.
function oneshotUnit(description: string, script: string, after: string[] = []): string {
  return `${header()}[Unit]
Description=${description}
Wants=network-online.target
After=${["network-online.target", "systemd-modules-load.service", "systemd-sysctl.service", ...after].join(" ")}

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=${script}

[Install]
WantedBy=multi-user.target
`;
}

export function renderIpvsUnit(): string {
  return oneshotUnit("lvs-pulumi: restore owned IPVS entries and fullnat SNAT rules", IPVS_RESTORE_SCRIPT);
}

/** On a director it also brings the VIPs it binds: only after the table is back, so none arrives at no service. */
export function renderRealServerUnit(): string {
  return oneshotUnit("lvs-pulumi: restore real server VIPs and return routes", REALSERVER_RESTORE_SCRIPT, [
    IPVS_UNIT_NAME,
  ]);
}

/**
 * An HA pair's keepalived (the distribution's unit) runs VRRP only: the checked services have their own instance
 * (renderCheckerUnit). It starts after the table replay, and not at all when the replay failed: a director without its
 * table must not take the VIPs (the peer keeps them). Ordered, not pulled in (no Wants=): the replay is enabled for
 * boot, and starting keepalived during an apply must not replay fragments whose entries are live ("already exists"
 * would fail the replay and so keepalived). Without a replay unit (no service yet) it starts as usual.
 */
export function renderKeepalivedDropIn(): string {
  const refusal = `lvs-pulumi: ${IPVS_UNIT_NAME} failed (IPVS table not replayed): keepalived stays down, no VIP taken here`;
  return `${header()}[Unit]
After=${IPVS_UNIT_NAME}

[Service]
ExecStartPre=/bin/sh -c 'if systemctl is-failed --quiet ${IPVS_UNIT_NAME}; then echo "${refusal}" >&2; exit 1; fi'
ExecStart=
ExecStart=/usr/sbin/keepalived --dont-fork --vrrp $DAEMON_ARGS
`;
}

/**
 * keepalived for the checked services alone (`--check`: no VRRP, its own config and pid files). A stop (restart,
 * upgrade, a service handed back) leaves their IPVS entries in place (--dont-release-ipvs) and the next start takes
 * them over. After the table replay (sysctls and modules set), but also when it failed: it holds no VIP.
 */
export function renderCheckerUnit(): string {
  const command = [
    "/usr/sbin/keepalived --dont-fork --check --dont-release-ipvs",
    `--use-file=${CHECKER_CONF} --pid=${CHECKER_PID_FILE} --checkers_pid=${CHECKER_CHILD_PID_FILE}`,
  ].join(" ");
  return `${header()}[Unit]
Description=lvs-pulumi: keepalived health checkers of the checked virtual services
Wants=network-online.target
After=network-online.target systemd-modules-load.service systemd-sysctl.service ${IPVS_UNIT_NAME}

[Service]
Type=notify
ExecStart=${command}
ExecReload=/bin/kill -HUP $MAINPID

[Install]
WantedBy=multi-user.target
`;
}
