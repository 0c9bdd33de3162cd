import { quote } from "../model/shell";
import { Fact } from "./fact";

export interface Route {
  /** "default" or a prefix "192.0.2.0/24" (host routes print without a length). */
  dst: string;
  gateway?: string;
  dev?: string;
  /** Preferred source (route get). */
  prefsrc?: string;
}

interface RouteJson {
  dst?: string;
  gateway?: string;
  dev?: string;
  prefsrc?: string;
}

export function parseRoutes(stdout: string): Route[] {
  if (stdout.trim() === "") return [];
  return (JSON.parse(stdout) as RouteJson[]).map((route) => {
    const parsed: Route = { dst: route.dst ?? "default" };
    if (route.gateway !== undefined) parsed.gateway = route.gateway;
    if (route.dev !== undefined) parsed.dev = route.dev;
    if (route.prefsrc !== undefined) parsed.prefsrc = route.prefsrc;
    return parsed;
  });
}

/** The main table of one family (`ip -j route show`, `ip -j -6 route show`). */
export function routesFact(family: "inet" | "inet6"): Fact<Route[]> {
  return { command: family === "inet" ? "ip -j route show" : "ip -j -6 route show", parse: parseRoutes };
}

/** The route the kernel would pick toward an address: gives the egress interface. */
export function routeToFact(address: string): Fact<Route | undefined> {
  return { command: `ip -j route get ${quote(address)}`, parse: (stdout) => parseRoutes(stdout)[0] };
}
