import { batchCommand, FactValues, parseBatch } from "../facts/batch";
import { Fact } from "../facts/fact";
import { applyScript, CHANGE_LOG, failedStep, Step, stepAudit } from "../plan/script";
import {
  commandError,
  ConnectionSpec,
  connectionKey,
  connectionSecrets,
  exec,
  maskSecrets,
  run,
  withHostLock,
} from "../remote";

/**
 * One host during one operation: facts are read in one round trip, changes run as one script. Callers hold the
 * host lock (see withHost) so that read -> plan -> apply is atomic against parallel operations on the same host;
 * only a read of one listing that plans nothing goes without it (shared-reads.ts).
 */
export class HostSession {
  /** `changeLog` is only moved by tests that run against a machine's own sshd. */
  constructor(
    readonly connection: ConnectionSpec,
    private readonly changeLog = CHANGE_LOG,
  ) {}

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

  /** Runs the changing steps in order, stopping at the first failure (named in the error); none: nothing at all. */
  async apply(steps: Step[]): Promise<void> {
    if (steps.length === 0) return;
    const result = await run(this.connection, "sh", { stdin: applyScript(steps, this.changeLog) });
    if (result.code === 0) return;
    const { step, stderr } = failedStep(result.stderr);
    const failed = step === undefined || step === 0 ? `record in ${this.changeLog}` : stepAudit(steps[step - 1]);
    throw commandError(this.connection, failed, { ...result, stderr });
  }
}

/** Runs `fn` with the host's lock held on the host itself (operations may come from several processes). */
export function withHost<T>(connection: ConnectionSpec, fn: (session: HostSession) => Promise<T>): Promise<T> {
  return withHostLock(connection, () => fn(new HostSession(connection)));
}
