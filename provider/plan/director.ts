import { IpvsTimeouts } from "../facts/ipvs-timeouts";
import { DirectorInputs } from "../schemas/director";
import { Family } from "../model/ip";
import { ForwardingMethod } from "../model/vocabulary";
import { planModules } from "./modules";
import { command } from "../model/shell";
import { planSysctls } from "./sysctls";

/** What the director's virtual services and real servers use; the modes it must support follow from it. */
export interface DirectorUsage {
  schedulers: string[];
  forwarding: ForwardingMethod[];
  families: Family[];
}

export interface DirectorState {
  modules: string[];
  sysctls: Record<string, string>;
  /** 0 leaves a timeout unchanged (ipvsadm --set semantics). */
  timeouts?: IpvsTimeouts;
}

export interface DirectorFacts {
  loadedModules: string[];
  sysctls: Record<string, string>;
  timeouts: IpvsTimeouts;
}

export function directorState(inputs: DirectorInputs, usage: DirectorUsage): DirectorState {
  const fullnat = usage.forwarding.includes("fullnat");
  const masquerades = fullnat || usage.forwarding.includes("nat");
  const modules = ["ip_vs", ...[...new Set(usage.schedulers)].sort().map((s) => `ip_vs_${s}`)];
  // fullnat's SNAT rule matches with xt_ipvs and needs IPVS connections tracked by netfilter.
  if (fullnat) modules.push("nf_conntrack", "xt_ipvs");
  const sysctls: Record<string, string> = {
    "net.ipv4.vs.expire_nodest_conn": inputs.sysctls.expireNodestConn ? "1" : "0",
    "net.ipv4.vs.expire_quiescent_template": inputs.sysctls.expireQuiescentTemplate ? "1" : "0",
  };
  // NAT replies are routed back through the director.
  if (masquerades && usage.families.includes("inet")) sysctls["net.ipv4.ip_forward"] = "1";
  if (masquerades && usage.families.includes("inet6")) sysctls["net.ipv6.conf.all.forwarding"] = "1";
  if (fullnat) sysctls["net.ipv4.vs.conntrack"] = "1";
  const state: DirectorState = { modules, sysctls };
  if (inputs.timeouts) {
    state.timeouts = {
      tcp: inputs.timeouts.tcp ?? 0,
      tcpFin: inputs.timeouts.tcpFin ?? 0,
      udp: inputs.timeouts.udp ?? 0,
    };
  }
  return state;
}

/** Modules first: the net.ipv4.vs.* keys only exist once ip_vs is loaded. */
export function planDirector(state: DirectorState, facts: DirectorFacts): string[] {
  return [
    ...planModules(state.modules, facts.loadedModules),
    ...planSysctls(state.sysctls, facts.sysctls),
    ...planTimeouts(state.timeouts, facts.timeouts),
  ];
}

function planTimeouts(wanted: IpvsTimeouts | undefined, live: IpvsTimeouts): string[] {
  if (!wanted) return [];
  const differs = (["tcp", "tcpFin", "udp"] as const).some((k) => wanted[k] !== 0 && wanted[k] !== live[k]);
  return differs ? [command("ipvsadm", "--set", String(wanted.tcp), String(wanted.tcpFin), String(wanted.udp))] : [];
}
