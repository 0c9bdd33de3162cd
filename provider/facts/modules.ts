import { Fact } from "./fact";

/** Loaded module names from /proc/modules ("ip_vs_rr 12288 1 - Live 0x0000000000000000"). */
export function parseLoadedModules(stdout: string): string[] {
  return stdout
    .split("\n")
    .map((line) => line.split(" ")[0])
    .filter(Boolean)
    .sort();
}

export function loadedModulesFact(): Fact<string[]> {
  return { command: "cat /proc/modules", parse: parseLoadedModules };
}
