import { Family } from "../model/ip";
import { HostState, vipAddressArgs } from "../model/host-claim";
import { command } from "../model/shell";
import { header } from "./header";
import { REALSERVER_SYSCTL_FILE } from "../model/host-paths";

/**
 * The real server's boot replay of the union of its claims, re-rendered whenever a claim changes. Sysctls are
 * re-applied first because per-interface keys (tunl0) may not have existed when systemd-sysctl ran.
 */
export function renderRealServerRestoreScript(state: HostState): string {
  const family = (f: Family) => (f === "inet6" ? ["-6"] : []);
  const steps = [
    ...state.modules.map((name) => command("modprobe", name)),
    command("sysctl", "-q", "-p", REALSERVER_SYSCTL_FILE),
    ...state.links.map((dev) => command("ip", "link", "set", "dev", dev, "up")),
    ...state.vips.map((vip) => command("ip", "addr", "replace", ...vipAddressArgs(vip))),
    ...state.routes.map((r) => command("ip", ...family(r.family), "route", "replace", r.to, "via", r.via)),
  ];
  return `#!/bin/sh\n${header()}set -u\nrc=0\n${steps.map((step) => `${step} || rc=1\n`).join("")}exit $rc\n`;
}
