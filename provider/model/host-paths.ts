import * as ipaddr from "ipaddr.js";

// Every file lvs-pulumi writes on a host. Everything we own lives under /etc/lvs-pulumi or carries "lvs-pulumi".

export const STATE_DIR = "/etc/lvs-pulumi";
export const SCRIPT_DIR = "/usr/local/lib/lvs-pulumi";
export const SYSTEMD_DIR = "/etc/systemd/system";

// Director.
export const DIRECTOR_MODULES_FILE = "/etc/modules-load.d/lvs-pulumi.conf";
export const DIRECTOR_SYSCTL_FILE = "/etc/sysctl.d/90-lvs-pulumi.conf";
/** One `ipvsadm -R` fragment per owned entry: 10-svc-* sort before 20-rs-*. */
export const IPVS_FRAGMENT_DIR = `${STATE_DIR}/ipvs.d`;
/** One fullnat SNAT rule per file: "<iptables|ip6tables> <rule spec>". */
export const SNAT_FRAGMENT_DIR = `${STATE_DIR}/snat.d`;
/** One file per fwmark service: its mangle PREROUTING mark rules, a line "<iptables|ip6tables> <rule spec>" each. */
export const MARK_FRAGMENT_DIR = `${STATE_DIR}/mark.d`;
/** "tcp tcpfin udp" for `ipvsadm --set`, which -R fragments cannot carry. */
/** One JSON file per IPVS entry we manage: the resources (URNs) that own it (plan/owners.ts). */
export const OWNERS_DIR = `${STATE_DIR}/owners.d`;
export const IPVS_TIMEOUTS_FILE = `${STATE_DIR}/ipvs-timeouts`;
export const IPVS_RESTORE_SCRIPT = `${SCRIPT_DIR}/restore-ipvs.sh`;
export const IPVS_UNIT_NAME = "lvs-pulumi-ipvs.service";

// Real server (a host may be a director and a real server at once, hence separate files).
export const REALSERVER_MODULES_FILE = "/etc/modules-load.d/lvs-pulumi-realserver.conf";
export const REALSERVER_SYSCTL_FILE = "/etc/sysctl.d/90-lvs-pulumi-realserver.conf";
/** One JSON claim per RealServer resource on this host. */
export const CLAIM_DIR = `${STATE_DIR}/claims.d`;
export const ORIGINALS_FILE = `${STATE_DIR}/originals.json`;
export const REALSERVER_RESTORE_SCRIPT = `${SCRIPT_DIR}/restore-realserver.sh`;
export const REALSERVER_UNIT_NAME = "lvs-pulumi-realserver.service";

/** Our folders, children before parents, so that emptied ones can be removed in this order. */
export const OWNED_DIRS = [
  `${STATE_DIR}/claims.d`,
  `${STATE_DIR}/ipvs.d`,
  `${STATE_DIR}/snat.d`,
  `${STATE_DIR}/mark.d`,
  OWNERS_DIR,
  STATE_DIR,
  SCRIPT_DIR,
];

/**
 * A key ("tcp:[2001:db8::1]:80/[2001:db8::11]:80") as a file name part, one name per key: an IPv6 address is
 * written as its 32 hex digits, since squashing its colons would make 2001:db8:1::5 and 2001:db8::1:5 one name.
 */
export function fileSafe(key: string): string {
  return key
    .replace(/\[([0-9a-fA-F:.]+)\]/g, (_match, address: string) =>
      ipaddr.IPv6.parse(address)
        .parts.map((part) => part.toString(16).padStart(4, "0"))
        .join(""),
    )
    .replace(/[^A-Za-z0-9.-]+/g, "_");
}

/** How versions before fileSafe named a key: every run of other characters one "_" (IPv6 keys could collide). */
function squashed(key: string): string {
  return key.replace(/[^A-Za-z0-9.-]+/g, "_");
}

/** Turns a key into a file name part. */
export type Naming = (key: string) => string;

export function serviceFragmentPath(serviceKey: string, name: Naming = fileSafe): string {
  return `${IPVS_FRAGMENT_DIR}/10-svc-${name(serviceKey)}.rules`;
}

export function destinationFragmentPath(destinationKey: string, name: Naming = fileSafe): string {
  return `${IPVS_FRAGMENT_DIR}/20-rs-${name(destinationKey)}.rules`;
}

export function markFragmentPath(serviceKey: string): string {
  return `${MARK_FRAGMENT_DIR}/${fileSafe(serviceKey)}.rules`;
}

export function snatFragmentPath(destinationKey: string, name: Naming = fileSafe): string {
  return `${SNAT_FRAGMENT_DIR}/${name(destinationKey)}.rules`;
}

/** The owners of entry `entryId` ("vs:<service key>", "rs:<destination key>"). */
export function ownersPath(entryId: string): string {
  return `${OWNERS_DIR}/${fileSafe(entryId)}.json`;
}

export function claimPath(claimId: string, name: Naming = fileSafe): string {
  return `${CLAIM_DIR}/${name(claimId)}.json`;
}

/**
 * The path an earlier version gave the file of `key`, when it is not today's (keys with an IPv6 address). Such a file
 * may be another key's: two keys shared that name, so its content says whose it is (plan/former-files.ts).
 */
export function formerPath(pathOf: (key: string, name?: Naming) => string, key: string): string | undefined {
  const former = pathOf(key, squashed);
  return former === pathOf(key) ? undefined : former;
}

export function unitPath(unitName: string): string {
  return `${SYSTEMD_DIR}/${unitName}`;
}

// HA pair: the distribution's keepalived runs its VRRP part only (`--vrrp`); we own keepalived.conf whole (and refuse
// to take over one we did not write).
export const KEEPALIVED_CONF = "/etc/keepalived/keepalived.conf";
export const KEEPALIVED_UNIT_NAME = "keepalived.service";
/** The pair's track and notify scripts (root-only /bin/sh files: keepalived.conf names them by path only). */
export const KEEPALIVED_SCRIPT_DIR = "/etc/keepalived/lvs-pulumi";
/** Where a new configuration and its scripts are staged for `keepalived -t` before they replace the running one. */
export const KEEPALIVED_CONFIG_TEST_DIR = "/etc/keepalived/lvs-pulumi.check";
/** Orders keepalived after our IPVS replay at boot: a returning primary takes the VIPs only once its table is back. */
export const KEEPALIVED_DROPIN_DIR = `${SYSTEMD_DIR}/keepalived.service.d`;
export const KEEPALIVED_DROPIN = `${KEEPALIVED_DROPIN_DIR}/lvs-pulumi.conf`;
/** Present when keepalived was not enabled before us: removing the pair disables it again. */
export const KEEPALIVED_ENABLED_MARKER = `${STATE_DIR}/keepalived-enabled-by-lvs-pulumi`;

// Checked virtual services' health checkers: a keepalived instance of their own (`--check`, no VRRP), so that it can be
// restarted (a service handed back) without moving an HA pair's VIPs. Its own config and pid files beside the pair's.
export const CHECKER_UNIT_NAME = "lvs-pulumi-checker.service";
export const CHECKER_CONF = "/etc/keepalived/lvs-pulumi-checker.conf";
export const CHECKER_PID_FILE = "/run/lvs-pulumi-checker.pid";
export const CHECKER_CHILD_PID_FILE = "/run/lvs-pulumi-checker-checkers.pid";

// Checked virtual services: keepalived owns them. One folder per service (its virtual_server block, its default check,
// one file per real server); keepalived includes a service's `<name>.conf` only while it has real servers (it drops,
// and `keepalived -t` refuses, a virtual_server without any). Includes are relative: a staged copy checks as it is.
export const KEEPALIVED_CHECKED_DIR = "/etc/keepalived/lvs-pulumi-checked";
/** A copy of KEEPALIVED_CHECKED_DIR with the batch's changes, checked by `keepalived -t` before they land. */
export const KEEPALIVED_CHECKED_STAGE = "/etc/keepalived/lvs-pulumi-checked.stage";

export interface CheckedServicePaths {
  /** `<name>.conf`: includes the service, present while it has real servers. */
  enable: string;
  dir: string;
  service: string;
  check: string;
  checkScript: string;
  /** Scripts run when the service gains or loses quorum. */
  quorumUp: string;
  quorumDown: string;
}

export function checkedServicePaths(serviceKey: string, root = KEEPALIVED_CHECKED_DIR): CheckedServicePaths {
  const name = fileSafe(serviceKey);
  const dir = `${root}/${name}`;
  return {
    enable: `${root}/${name}.conf`,
    dir,
    service: `${dir}/service`,
    check: `${dir}/check`,
    checkScript: `${dir}/check.sh`,
    quorumUp: `${dir}/quorum-up.sh`,
    quorumDown: `${dir}/quorum-down.sh`,
  };
}

/** A checked real server's `real_server` block, its own check's script (misc checks only) and its notify scripts. */
export function checkedRealServerPaths(serviceKey: string, destinationKey: string, root = KEEPALIVED_CHECKED_DIR) {
  const { dir } = checkedServicePaths(serviceKey, root);
  const name = fileSafe(destinationKey.slice(destinationKey.indexOf("/") + 1));
  return {
    block: `${dir}/rs-${name}.conf`,
    checkScript: `${dir}/rs-${name}.sh`,
    notifyUp: `${dir}/rs-${name}.up.sh`,
    notifyDown: `${dir}/rs-${name}.down.sh`,
  };
}
