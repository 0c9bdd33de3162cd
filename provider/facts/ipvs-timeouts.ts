import { Fact } from "./fact";

export interface IpvsTimeouts {
  tcp: number;
  tcpFin: number;
  udp: number;
}

/** `ipvsadm -Ln --timeout` prints "Timeout (tcp tcpfin udp): 900 120 300". */
export function ipvsTimeoutsFact(): Fact<IpvsTimeouts> {
  return {
    command: "ipvsadm -Ln --timeout",
    parse(stdout) {
      const match = /Timeout \(tcp tcpfin udp\):\s+(\d+)\s+(\d+)\s+(\d+)/.exec(stdout);
      if (!match) throw new Error(`ipvsadm --timeout: unexpected output ${JSON.stringify(stdout)}`);
      return { tcp: Number(match[1]), tcpFin: Number(match[2]), udp: Number(match[3]) };
    },
  };
}
