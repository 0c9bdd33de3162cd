import { command } from "../model/shell";

/** `modprobe` for each wanted module not yet loaded. Modules are never unloaded: others may use them. */
export function planModules(wanted: string[], loaded: string[]): string[] {
  return [...new Set(wanted)].filter((name) => !loaded.includes(name)).map((name) => command("modprobe", name));
}
