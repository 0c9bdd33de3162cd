import { IpvsDestination, IpvsService } from "../model/ipvs";
import { IpvsTimeouts } from "../facts/ipvs-timeouts";
import { destinationCommand, restoreLine, serviceCommand } from "../model/ipvsadm";

// `ipvsadm -R` splits lines on blanks itself (no shell), so arguments are unquoted; it knows no comments, so the
// fragments carry no header.

export function renderServiceRules(service: IpvsService): string {
  return `${restoreLine(serviceCommand("-A", service))}\n`;
}

export function renderDestinationRules(dest: IpvsDestination): string {
  return `${restoreLine(destinationCommand("-a", dest))}\n`;
}

/** The IPVS_TIMEOUTS_FILE: the three `ipvsadm --set` arguments. */
export function renderTimeouts(timeouts: IpvsTimeouts): string {
  return `${timeouts.tcp} ${timeouts.tcpFin} ${timeouts.udp}\n`;
}
