import { IpvsDestination, IpvsService, isFwmarkService, KernelForwarding, serviceKey } from "../model/ipvs";
import { command } from "../model/shell";
import { HealthCheck } from "../schemas/health-check";
import { header } from "./header";
import { checkedServicePaths } from "../model/host-paths";

// keepalived's side of a checked virtual service: text files only (see paths.ts for where they go).

/** The keepalived.conf older lvs-pulumi wrote for checked services on a director without an HA pair. */
export const LEGACY_CHECKED_ONLY_MARKER = "# lvs-pulumi: checked virtual services (no HA pair)";

/**
 * keepalived's global_defs with script security, then `extra` lines. Always: checks, notifications and an HA pair's
 * track and notify scripts run our scripts as root, and keepalived refuses any that a non-root user could modify;
 * without these lines keepalived warns at every start that scripts run without script security.
 */
export function renderGlobalDefs(extra: string[] = []): string[] {
  return ["global_defs {", "    enable_script_security", "    script_user root", ...extra, "}"];
}

/** The checker instance's config (CHECKER_CONF): script security, then every enabled service in `checkedDir`. */
export function renderCheckerConf(checkedDir: string): string {
  return `${header()}\n${[...renderGlobalDefs(), ""].join("\n")}${renderCheckedInclude(checkedDir)}`;
}

/** The line that makes keepalived read every enabled checked service. */
export function renderCheckedInclude(checkedDir: string): string {
  return `include ${checkedDir}/*.conf\n`;
}

/** What the service settings need besides the table entry. */
export interface CheckedServiceSettings {
  sorryServer?: { address: string; port?: number; forwarding: KernelForwarding };
  quorum?: number;
  hysteresis?: number;
  notifyQuorumUp?: string[];
  notifyQuorumDown?: string[];
  startHealthy: boolean;
}

const FORWARDING_WORDS = { dr: "DR", nat: "NAT", tun: "TUN" } as const;

/** The `virtual_server` block; its real servers are the folder's rs-*.conf files (relative to it). */
export function renderCheckedService(service: IpvsService, settings: CheckedServiceSettings): string {
  const { id } = service;
  const paths = checkedServicePaths(serviceKey(id));
  const head = isFwmarkService(id)
    ? [`virtual_server fwmark ${id.fwmark} {`, `    ip_family ${id.family}`]
    : [`virtual_server ${id.address} ${id.port} {`, `    protocol ${id.protocol.toUpperCase()}`];
  const sorry = settings.sorryServer;
  const sorryPort = sorry?.port ?? (isFwmarkService(id) ? 0 : id.port);
  return [
    `${header().trimEnd()}`,
    ...head,
    `    lvs_sched ${service.scheduler}`,
    ...service.flags.map((flag) => `    ${flag}`),
    ...(service.persistence ? [`    persistence_timeout ${service.persistence.timeoutSeconds}`] : []),
    ...(service.persistence?.netmask ? [`    persistence_granularity ${service.persistence.netmask}`] : []),
    ...(service.onePacket ? ["    ops"] : []),
    ...(settings.startHealthy ? [] : ["    alpha"]),
    ...(settings.quorum !== undefined ? [`    quorum ${settings.quorum}`] : []),
    ...(settings.hysteresis !== undefined ? [`    hysteresis ${settings.hysteresis}`] : []),
    ...(settings.notifyQuorumUp ? [`    quorum_up ${paths.quorumUp}`] : []),
    ...(settings.notifyQuorumDown ? [`    quorum_down ${paths.quorumDown}`] : []),
    ...(sorry
      ? [
          `    sorry_server ${sorry.address} ${sorryPort}`,
          `    sorry_server_lvs_method ${FORWARDING_WORDS[sorry.forwarding]}`,
        ]
      : []),
    "    include rs-*.conf",
    "}",
    "",
  ].join("\n");
}

/** The enable file: includes the service's block (relative to the checked folder). */
export function renderCheckedEnable(serviceKey: string): string {
  const { dir } = checkedServicePaths(serviceKey, ".");
  return `${header()}include ${dir.slice(2)}/service\n`;
}

/**
 * A checker's lines inside a `real_server` block. A misc check runs `scriptPath`, a /bin/sh script that `exec`s the
 * argv quoted for sh: keepalived's own word splitting of `misc_path` never sees the arguments.
 */
export function renderHealthCheck(check: HealthCheck, scriptPath: string): string {
  const timing = [
    ...(check.port !== undefined ? [`connect_port ${check.port}`] : []),
    `delay_loop ${check.intervalSeconds}`,
    `retry ${check.retries}`,
    `delay_before_retry ${check.delayBeforeRetrySeconds}`,
    ...(check.warmupSeconds !== undefined ? [`warmup ${check.warmupSeconds}`] : []),
  ];
  const connect = [`connect_timeout ${check.connectTimeoutSeconds}`];
  const body = (() => {
    switch (check.type) {
      case "tcp":
        return { name: "TCP_CHECK", lines: [...connect, ...timing] };
      case "http":
      case "https":
        return {
          name: check.type === "http" ? "HTTP_GET" : "SSL_GET",
          lines: [
            "url {",
            `    path ${check.path}`,
            `    status_code ${check.status}`,
            ...(check.digest ? [`    digest ${check.digest}`] : []),
            "}",
            ...(check.virtualHost ? [`virtualhost ${check.virtualHost}`] : []),
            ...connect,
            ...timing,
          ],
        };
      case "misc":
        return {
          name: "MISC_CHECK",
          lines: [
            `misc_path ${scriptPath}`,
            ...(check.timeoutSeconds !== undefined ? [`misc_timeout ${check.timeoutSeconds}`] : []),
            ...(check.dynamicWeight ? ["misc_dynamic"] : []),
            ...timing.filter((line) => !line.startsWith("connect_port")),
          ],
        };
      case "dns":
        return { name: "DNS_CHECK", lines: [`name ${check.name}`, `type ${check.recordType}`, ...connect, ...timing] };
    }
  })();
  return [
    ...(check.inhibitOnFailure ? ["inhibit_on_failure"] : []),
    `${body.name} {`,
    ...body.lines.map((line) => `    ${line}`),
    "}",
    "",
  ].join("\n");
}

/** A root-only script that runs `argv` as it is: keepalived names scripts by path, and splits words its own way. */
export function renderExecScript(argv: string[]): string {
  return `#!/bin/sh\n${header()}exec ${command(...argv)}\n`;
}

/** A misc check's script; undefined for the other checkers. */
export function renderCheckScript(check: HealthCheck): string | undefined {
  return check.type === "misc" ? renderExecScript(check.command) : undefined;
}

/** The service's default check file: a header, then the checker lines (included inside each `real_server`). */
export function renderServiceCheck(check: HealthCheck, serviceKey: string): string {
  return `${header()}${renderHealthCheck(check, checkedServicePaths(serviceKey).checkScript)}`;
}

/** A checked real server's notify scripts, by path (undefined: none). */
export interface NotifyScripts {
  up?: string;
  down?: string;
}

/**
 * A real server's `real_server` block: its own check when it has one (a misc check runs `ownScript`), the service's
 * check file otherwise. fullnat is NAT to keepalived (the SNAT rule stays lvs-pulumi's).
 */
export function renderCheckedRealServer(
  dest: IpvsDestination,
  own?: { check: HealthCheck; script: string },
  notify: NotifyScripts = {},
): string {
  const check = own ? renderHealthCheck(own.check, own.script).trimEnd().split("\n") : ["include check"];
  return [
    header().trimEnd(),
    `real_server ${dest.address} ${dest.port} {`,
    `    weight ${dest.weight}`,
    `    lvs_method ${FORWARDING_WORDS[dest.forwarding]}`,
    ...(dest.upperThreshold > 0 ? [`    uthreshold ${dest.upperThreshold}`] : []),
    ...(dest.lowerThreshold > 0 ? [`    lthreshold ${dest.lowerThreshold}`] : []),
    ...(notify.up ? [`    notify_up ${notify.up}`] : []),
    ...(notify.down ? [`    notify_down ${notify.down}`] : []),
    ...check.map((line) => `    ${line}`),
    "}",
    "",
  ].join("\n");
}
