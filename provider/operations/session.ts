import { batchCommand, FactValues, parseBatch } from "../facts/batch";
import { Fact } from "../facts/fact";
import { quote } from "../plan/shell";
import { ConnectionSpec, connectionKey, connectionSecrets, exec, maskSecrets, withHostLock } from "../remote";

/** Where every changing command we run on a host is recorded, with its time: the audit trail of what we did. */
export const CHANGE_LOG = "/var/log/lvs-pulumi/changes.log";

/**
 * One host during one operation: facts are read in one round trip, changes run as one script. Callers hold the
 * host lock (see withHost) so that read -> plan -> apply is atomic against parallel operations on the same host.
 */
export class HostSession {
  constructor(readonly connection: ConnectionSpec) {}

  get name(): string {
    return connectionKey(this.connection);
  }

  async read<F extends Record<string, Fact<unknown>>>(facts: F): Promise<FactValues<F>> {
    const result = await exec(this.connection, batchCommand(facts));
    try {
      return parseBatch(facts, result.stdout);
    } catch (error) {
      const stderr = maskSecrets(result.stderr.trim(), connectionSecrets(this.connection));
      throw new Error(`host ${this.name}: ${(error as Error).message}${stderr ? `: ${stderr}` : ""}`);
    }
  }

  /** Runs the changing commands in order, stopping at the first failure; nothing at all when there is none. */
  async apply(commands: string[]): Promise<void> {
    if (commands.length === 0) return;
    const script = [
      "set -e",
      `mkdir -p ${quote(CHANGE_LOG.slice(0, CHANGE_LOG.lastIndexOf("/")))}`,
      ...commands.flatMap((cmd) => [
        `printf '%s %s\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" ${quote(cmd)} >> ${quote(CHANGE_LOG)}`,
        cmd,
      ]),
    ].join("\n");
    await exec(this.connection, script);
  }
}

/** Runs `fn` with the host's lock held on the host itself (operations may come from several processes). */
export function withHost<T>(connection: ConnectionSpec, fn: (session: HostSession) => Promise<T>): Promise<T> {
  return withHostLock(connection, () => fn(new HostSession(connection)));
}
