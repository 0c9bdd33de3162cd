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
