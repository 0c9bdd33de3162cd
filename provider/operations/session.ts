import { setTimeout as sleep } from "timers/promises";
import { batchCommand, FactValues, parseBatch } from "../facts/batch";
import { Fact } from "../facts/fact";
import { fileFact } from "../facts/files";
import { applyScript, CHANGE_LOG, failedStep } from "../plan/script";
import { Step, stepAudit } from "../plan/step";
import { foundUnreachable, knownDown, knownDownError, rememberUnreachable } from "./unreachable";
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

// An exec request is one SSH packet and its command one argv string; some servers (ssh2's) refuse a few dozen KiB.
// Longer reads (a batch of many resources' files) go on stdin, read whole before it runs (the braces).
const MAX_COMMAND_LENGTH = 8 * 1024;

// Hosts (and change logs) whose log this process has rotated and re-moded once: later scripts skip that (a program
// or two each), so a log grows past its limit by at most one provider run before it rotates.
const checkedLogs = new Set<string>();

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
    const command = batchCommand(facts);
    const result =
      command.length > MAX_COMMAND_LENGTH
        ? await exec(this.connection, "sh", { stdin: `{\n${command}\n} </dev/null\n` })
        : await exec(this.connection, command);
    try {
      return parseBatch(facts, result.stdout);
    } catch (error) {
      const stderr = maskSecrets(result.stderr.trim(), connectionSecrets(this.connection));
      throw new Error(`host ${this.name}: ${(error as Error).message}${stderr ? `: ${stderr}` : ""}`);
    }
  }

  /**
   * `facts` and the files at `paths` in the same round trip; `file(path)` is a file's content, null when it is absent
   * (or `path` is undefined: a file the entry does not have, such as a former name that never differed).
   */
  async readWithFiles<F extends Record<string, Fact<unknown>>>(
    facts: F,
    paths: (string | undefined)[],
  ): Promise<{ facts: FactValues<F>; file: (path: string | undefined) => string | null }> {
    const unique = [...new Set(paths.filter((path) => path !== undefined))];
    const fileFacts = Object.fromEntries(unique.map((path, i) => [`owned_file_${i}`, fileFact(path)]));
    const values = (await this.read({ ...facts, ...fileFacts })) as Record<string, unknown>;
    const files = new Map(unique.map((path, i) => [path, values[`owned_file_${i}`] as string | null]));
    return {
      facts: values as FactValues<F>,
      file: (path) => (path === undefined ? null : (files.get(path) ?? null)),
    };
  }

  /**
   * Reads `facts` every 250 ms until `done` holds of them or `timeoutMs` has passed: the last values, and whether
   * `done` held (for what a host applies asynchronously: keepalived's reloads and restarts).
   */
  async readUntil<F extends Record<string, Fact<unknown>>>(
    facts: F,
    done: (values: FactValues<F>) => boolean,
    timeoutMs: number,
  ): Promise<{ values: FactValues<F>; done: boolean }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const values = await this.read(facts);
      if (done(values)) return { values, done: true };
      if (Date.now() > deadline) return { values, done: false };
      await sleep(250);
    }
  }

  /** Runs the changing steps in order, stopping at the first failure (named in the error); none: nothing at all. */
  async apply(steps: Step[]): Promise<void> {
    const failure = await this.runScript(steps);
    if (failure) throw failure.error;
  }

  /**
   * Runs the steps in order as one script, stopping at the first failure: the failed step's number (1-based;
   * undefined when none ran) and the error. Undefined when all ran.
   */
  async runScript(steps: Step[]): Promise<{ step: number | undefined; error: Error } | undefined> {
    if (steps.length === 0) return undefined;
    const checked = `${this.name} ${this.changeLog}`;
    const options = { now: new Date(), checkLog: !checkedLogs.has(checked) };
    const result = await run(this.connection, "sh", { stdin: applyScript(steps, this.changeLog, options) });
    const { step, stderr } = failedStep(result.stderr);
    if (result.code === 0 || (step ?? 0) > 0) checkedLogs.add(checked);
    if (result.code === 0) return undefined;
    const failed = step === undefined || step === 0 ? `record in ${this.changeLog}` : stepAudit(steps[step - 1]);
    return { step: step || undefined, error: commandError(this.connection, failed, { ...result, stderr }) };
  }
}

/**
 * Runs `fn` with the host's lock held on the host itself (operations may come from several processes). A host listed
 * as down, or found unreachable earlier in this process (its whole dial budget spent), fails at once.
 */
export function withHost<T>(connection: ConnectionSpec, fn: (session: HostSession) => Promise<T>): Promise<T> {
  const down = knownDown(connection) ? knownDownError(connection) : foundUnreachable(connection);
  if (down) return Promise.reject(down);
  return withHostLock(connection, () => fn(new HostSession(connection))).catch((error: unknown) => {
    rememberUnreachable(connection, error);
    throw error;
  });
}
