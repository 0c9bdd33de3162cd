// Bounded retries with exponential backoff. Small enough that a dependency is not worth it.
export interface RetryOptions {
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  /** Errors for which retrying cannot help (bad host key, bad credentials) return false. */
  retryable: (err: unknown) => boolean;
  onRetry?: (attempt: number, delayMs: number, err: unknown) => void;
}

export class RetriesExhausted extends Error {
  constructor(
    readonly attempts: number,
    readonly lastError: unknown,
  ) {
    super(`gave up after ${attempts} attempts`);
    this.name = "RetriesExhausted";
  }
}

/** Run `fn` up to `attempts` times; non-retryable errors propagate as-is, exhaustion throws RetriesExhausted. */
export async function retry<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions): Promise<T> {
  const attempts = Math.max(1, opts.attempts);
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (!opts.retryable(err)) throw err;
      lastError = err;
      if (attempt === attempts) break;
      const delay = Math.min(opts.maxDelayMs, opts.initialDelayMs * 2 ** (attempt - 1));
      opts.onRetry?.(attempt, delay, err);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  throw new RetriesExhausted(attempts, lastError);
}
