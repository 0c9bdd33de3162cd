import { Fact } from "./fact";

export interface IpvsadmVersion {
  /** "1.31" */
  ipvsadm: string;
  /** The IPVS version ipvsadm was compiled against, "1.2.1". */
  ipvs?: string;
}

/** Undefined when ipvsadm is not installed (the command prints nothing then). */
export function parseIpvsadmVersion(stdout: string): IpvsadmVersion | undefined {
  const match = /ipvsadm v(\S+)/.exec(stdout);
  if (!match) return undefined;
  const ipvs = /IPVS v(\S+?)\)/.exec(stdout);
  return ipvs ? { ipvsadm: match[1], ipvs: ipvs[1] } : { ipvsadm: match[1] };
}

export function ipvsadmVersionFact(): Fact<IpvsadmVersion | undefined> {
  return { command: "ipvsadm --version 2>/dev/null || true", parse: parseIpvsadmVersion };
}
