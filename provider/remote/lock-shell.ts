// The shell that holds a host's lock also runs the commands of its holder, and stays open between holds (lock.ts):
// one exec channel per host instead of one per command or per hold. Every SSH exec costs an sshd session, the user's
// login shell and, with sudo, sudo itself (a few hundred ms on a slow host); a command in this shell costs one fork
// of `sh`, taking the lock one `flock`.
import { randomBytes } from "crypto";
import { StringDecoder } from "string_decoder";
import { ClientChannel } from "ssh2";
import { Link, RunResult } from "./channel";
import { CommandTimeoutError, ConnectionLostError } from "./errors";
import { quote } from "../model/shell";

interface RunOpts {
  timeoutMs: number;
  display: string;
}

/**
 * Each command goes to the shell's stdin as `sh -c <command> <<'END'` (its stdin in the here-document), or with
 * stdin from /dev/null, then the shell prints an end line with the exit status on stdout and one on stderr; a random
 * tag per command keeps output from ever looking like an end line. fd 9 (the lock) is closed for the command, so
 * nothing it leaves running holds the lock.
 */
export class LockShell {
  private stdout = "";
  private stderr = "";
  private waiting: (() => void) | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private failure: Error | undefined;
  private ended: Error | undefined;
  private readonly endListeners = new Set<(reason: Error) => void>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly channel: ClientChannel,
    private readonly link: Link,
  ) {
    const out = new StringDecoder("utf8");
    const err = new StringDecoder("utf8");
    channel.on("data", (d: Buffer) => this.received(() => (this.stdout += out.write(d))));
    channel.stderr.on("data", (d: Buffer) => this.received(() => (this.stderr += err.write(d))));
    channel.on("close", () =>
      this.end(this.link.downReason() ?? new ConnectionLostError(this.link.name, "the host lock's shell ended")),
    );
    // A connection found dead (missed keepalives) may close its channels late: the shell is gone now.
    this.unsubscribe = link.onDown((reason) => this.end(reason));
  }

  /**
   * Whether `stdin` can travel in a here-document: text that ends with a newline (a here-document always ends with
   * one, and cannot hold NUL). Other input goes through an exec of its own.
   */
  static carries(stdin: string | Buffer | undefined): stdin is string | undefined {
    return stdin === undefined || (typeof stdin === "string" && stdin.endsWith("\n") && !stdin.includes("\0"));
  }

  /**
   * Calls `listener` with the reason once the shell is gone (closed, or its channel or connection lost); returns what
   * stops that (the shell outlives a lock hold).
   */
  onEnd(listener: (reason: Error) => void): () => void {
    if (this.ended) listener(this.ended);
    else this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /** Whether commands can still run here (no timeout closed it, the channel is open). */
  get usable(): boolean {
    return this.failure === undefined;
  }

  /** Runs `command` (via `sh -c`, as an exec would) after the commands before it; rejects once the shell is gone. */
  run(command: string, stdin: string | undefined, opts: RunOpts): Promise<RunResult> {
    return this.enqueue(
      (tag) =>
        stdin === undefined
          ? `sh -c ${quote(command)} 9>&- </dev/null\n`
          : `sh -c ${quote(command)} 9>&- <<'${tag}'\n${stdin}${tag}\n`,
      opts,
    );
  }

  /** Runs `line` in this shell itself (the lock's fd 9 is the shell's own), after the commands before it. */
  runHere(line: string, opts: RunOpts): Promise<RunResult> {
    return this.enqueue(() => `${line}\n`, opts);
  }

  /**
   * Ends the shell (EOF on its stdin): it exits once its current command is done. Unusable at once: its channel
   * closes a moment later, and a hold that took it meanwhile would find it gone.
   */
  close(): void {
    this.fail(new ConnectionLostError(this.link.name, "the host lock's shell was closed"));
    this.channel.end();
  }

  private end(reason: Error): void {
    if (this.ended) return;
    this.ended = reason;
    this.unsubscribe();
    this.fail(reason);
    for (const listener of this.endListeners) listener(reason);
  }

  private enqueue(input: (tag: string) => string, opts: RunOpts): Promise<RunResult> {
    const result = this.queue.then(() => this.runNow(input, opts));
    this.queue = result.catch(() => {});
    return result;
  }

  private async runNow(inputOf: (tag: string) => string, { timeoutMs, display }: RunOpts): Promise<RunResult> {
    if (this.failure) throw this.failure;
    const tag = `lvs-pulumi-end-${randomBytes(12).toString("hex")}`;
    const end = `rc=$?; printf '\\n${tag} %d\\n' "$rc"; printf '\\n${tag}\\n' >&2\n`;
    this.channel.write(inputOf(tag) + end);
    const outEnd = new RegExp(`\n${tag} (\\d+)\n`);
    const errEnd = `\n${tag}\n`;
    await this.until(() => outEnd.test(this.stdout) && this.stderr.includes(errEnd), timeoutMs, display);
    const out = outEnd.exec(this.stdout)!;
    const errAt = this.stderr.indexOf(errEnd);
    const result = {
      stdout: this.stdout.slice(0, out.index),
      stderr: this.stderr.slice(0, errAt),
      code: Number(out[1]),
    };
    this.stdout = this.stdout.slice(out.index + out[0].length);
    this.stderr = this.stderr.slice(errAt + errEnd.length);
    return result;
  }

  private until(done: () => boolean, timeoutMs: number, display: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              this.waiting = undefined;
              reject(new CommandTimeoutError(this.link.name, display, timeoutMs));
              // The command may still run: closing the shell ends the lock, so nothing else runs beside it.
              this.fail(
                new Error(
                  `${this.link.name}: the host lock's shell was closed after \`${display}\` timed out: ` +
                    "nothing more runs under this lock",
                ),
              );
              this.channel.close();
            }, timeoutMs)
          : undefined;
      const check = () => {
        if (this.failure) {
          clearTimeout(timer);
          reject(this.failure);
        } else if (done()) {
          clearTimeout(timer);
          this.waiting = undefined;
          resolve();
        }
      };
      this.waiting = check;
      check();
    });
  }

  private received(append: () => void): void {
    append();
    this.waiting?.();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.waiting?.();
  }
}
