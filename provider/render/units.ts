import { header } from "./header";
import { IPVS_RESTORE_SCRIPT, IPVS_UNIT_NAME, REALSERVER_RESTORE_SCRIPT } from "./paths";

// Ordered after module loading and sysctls so that net.ipv4.vs.* and tunl0 exist and are set when entries return.
function oneshotUnit(description: string, script: string): string {
  return `${header()}[Unit]
Description=${description}
Wants=network-online.target
After=network-online.target systemd-modules-load.service systemd-sysctl.service

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

export function renderRealServerUnit(): string {
  return oneshotUnit("lvs-pulumi: restore real server VIPs and return routes", REALSERVER_RESTORE_SCRIPT);
}

export function renderKeepalivedDropIn(): string {
  return `${header()}[Unit]
After=${IPVS_UNIT_NAME}
`;
}
