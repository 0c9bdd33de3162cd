import { IpvsadmVersion } from "../facts/ipvsadm-version";
import { quote } from "../model/shell";

/** A package by its name per package manager family, where the names differ (iputils-arping on Debian, iputils on RHEL). */
export type PackageName = string | { apt: string; rpm: string };

/** Installs a package with whatever package manager the host has (apt, dnf, yum); only run when the user opted in. */
export function installPackage(name: PackageName): string {
  const apt = quote(typeof name === "string" ? name : name.apt);
  const rpm = quote(typeof name === "string" ? name : name.rpm);
  return (
    `if command -v apt-get >/dev/null; then DEBIAN_FRONTEND=noninteractive apt-get install -y -q ${apt}; ` +
    `elif command -v dnf >/dev/null; then dnf install -y -q ${rpm}; else yum install -y -q ${rpm}; fi`
  );
}

/** What a director has of the programs it needs (facts/ipvsadm-version.ts, facts/services.ts). */
export interface DirectorPrograms {
  ipvsadm: IpvsadmVersion | undefined;
  arping: boolean;
  iptables: boolean;
}

/**
 * The packages a director lacks, installed with `installPackages`; without it a missing program the director cannot
 * run without is refused. ipvsadm runs the table; arping announces a VIP bound on the director (see plan/announce.ts).
 * iptables is needed only by fullnat's SNAT and fwmark matches, so its absence is no error here (those applies name
 * the host and the failed command), but installPackages installs it with the rest.
 */
export function planDirectorPackages(programs: DirectorPrograms, installPackages: boolean, host: string): string[] {
  const missing: { program: string; from: PackageName; required: boolean }[] = [
    ...(programs.ipvsadm === undefined ? [{ program: "ipvsadm", from: "ipvsadm", required: true }] : []),
    ...(programs.arping
      ? []
      : [{ program: "arping", from: { apt: "iputils-arping", rpm: "iputils" }, required: true }]),
    ...(programs.iptables ? [] : [{ program: "iptables", from: "iptables", required: false }]),
  ];
  const required = missing.filter((m) => m.required);
  if (required.length > 0 && !installPackages) {
    const names = required.map((m) => m.program).join(" and ");
    throw new Error(`host ${host}: ${names} not installed; install or set installPackages: true`);
  }
  return installPackages ? missing.map((m) => installPackage(m.from)) : [];
}
