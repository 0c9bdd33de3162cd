import { quote } from "../model/shell";
import { Fact } from "./fact";

export interface LinkState {
  present: boolean;
  /** Administratively up (flag UP), whatever the carrier. */
  up: boolean;
}

/** From `ip -j link show X`; empty output means the link does not exist. */
export function parseLink(stdout: string): LinkState {
  if (stdout.trim() === "") return { present: false, up: false };
  const [link] = JSON.parse(stdout) as { flags?: string[] }[];
  return { present: link !== undefined, up: link?.flags?.includes("UP") ?? false };
}

export function linkFact(dev: string): Fact<LinkState> {
  return { command: `ip -j link show ${quote(dev)} 2>/dev/null || true`, parse: parseLink };
}
