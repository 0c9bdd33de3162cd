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
  // Missing ipvsadm prints nothing; an ipvsadm that cannot reach the kernel fails the read with its own message.
  return { command: "if command -v ipvsadm >/dev/null; then ipvsadm --version; fi", parse: parseIpvsadmVersion };
}
