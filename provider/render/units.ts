import { header } from "./header";
import { IPVS_RESTORE_SCRIPT, IPVS_UNIT_NAME, REALSERVER_RESTORE_SCRIPT } from "./paths";

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
 * keepalived starts after the table replay, and not at all when the replay failed: a director without its table
 * must not take the VIPs (the peer keeps them). Ordered, not pulled in (no Wants=): the replay is enabled for boot,
 * and starting keepalived during an apply must not replay fragments whose entries are live ("already exists" would
 * fail the replay and so keepalived). Without a replay unit (no service yet) it starts as usual. With checked services
 * (`keepIpvsOnStop`), a stop (restart, upgrade) leaves their IPVS entries in place and the next start takes them over;
 * a director without any keeps keepalived's own behaviour.
 */
export function renderKeepalivedDropIn(keepIpvsOnStop: boolean): string {
  const refusal = `lvs-pulumi: ${IPVS_UNIT_NAME} failed (IPVS table not replayed): keepalived stays down, no VIP taken here`;
  const keep = keepIpvsOnStop
    ? "ExecStart=\nExecStart=/usr/sbin/keepalived --dont-fork --dont-release-ipvs $DAEMON_ARGS\n"
    : "";
  return `${header()}[Unit]
After=${IPVS_UNIT_NAME}

[Service]
ExecStartPre=/bin/sh -c 'if systemctl is-failed --quiet ${IPVS_UNIT_NAME}; then echo "${refusal}" >&2; exit 1; fi'
${keep}`;
}
