import { quote } from "./shell";

/** Installs a package with whatever package manager the host has (apt, dnf, yum); only run when the user opted in. */
export function installPackage(name: string): string {
  const pkg = quote(name);
  return (
    `if command -v apt-get >/dev/null; then DEBIAN_FRONTEND=noninteractive apt-get install -y -q ${pkg}; ` +
    `elif command -v dnf >/dev/null; then dnf install -y -q ${pkg}; else yum install -y -q ${pkg}; fi`
  );
}
