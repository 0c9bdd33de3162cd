import { header } from "./header";

/** modules-load.d(5): one module per line, loaded by systemd-modules-load before sysctls are applied. */
export function renderModulesLoad(modules: string[]): string {
  return header() + [...new Set(modules)].map((name) => `${name}\n`).join("");
}
