import { Fact } from "./fact";

/**
 * What a host says it is, so that two names or addresses of one machine count as one host: systemd's machine id,
 * or D-Bus's on hosts without systemd. Undefined when the host has neither.
 */
export function machineIdFact(): Fact<string | undefined> {
  return {
    command: "cat /etc/machine-id 2>/dev/null || cat /var/lib/dbus/machine-id 2>/dev/null || true",
    parse: (stdout) => stdout.trim() || undefined,
  };
}
