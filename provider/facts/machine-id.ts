import { Fact } from "./fact";

/**
 * What a host says it is, so that two names or addresses of one machine count as one host: its machine id (systemd's,
 * or D-Bus's) with its SSH host public keys. The keys tell apart machines that share a machine id (clones of one
 * image, containers over one tree). Undefined when the host shows neither.
 */
export function machineIdFact(): Fact<string | undefined> {
  return {
    command:
      "{ cat /etc/machine-id 2>/dev/null || cat /var/lib/dbus/machine-id 2>/dev/null; " +
      "cat /etc/ssh/ssh_host_*_key.pub 2>/dev/null; } | sort; true",
    parse: (stdout) => stdout.trim() || undefined,
  };
}
