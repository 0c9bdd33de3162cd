// Error types callers can branch on. Messages never contain secrets (masked by the thrower).

/** A remote command exited non-zero. All text fields are already masked. */
export class RemoteCommandError extends Error {
  constructor(
    readonly host: string,
    readonly command: string,
    readonly code: number | null,
    readonly stdout: string,
    readonly stderr: string,
    readonly signal?: string,
  ) {
    const status = code === null ? `signal ${signal ?? "unknown"}` : `exit code ${code}`;
    const detail = tail(stderr) || tail(stdout);
    super(`command failed on ${host} (${status}): ${command}${detail ? `\n${detail}` : ""}`);
    this.name = "RemoteCommandError";
  }
}

/** Presented host key does not match the pinned/known one, or nothing to verify against. Never retried. */
export class HostKeyVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HostKeyVerificationError";
  }
}

/** Server rejected every authentication method. Never retried. */
export class AuthenticationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AuthenticationError";
  }
}

/** All dial attempts failed. */
export class HostUnreachableError extends Error {
  constructor(
    readonly endpoint: string,
    readonly attempts: number,
    readonly lastError: unknown,
  ) {
    const cause = lastError instanceof Error ? lastError.message : String(lastError);
    super(`host ${endpoint} unreachable after ${attempts} attempts: ${cause}`, { cause: lastError });
    this.name = "HostUnreachableError";
  }
}

/**
 * The SSH connection to `host` (or a jump host under it) died, stopped answering keepalives or was
 * closed while in use. A command in flight may or may not have run; it is not retried.
 */
export class ConnectionLostError extends Error {
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`SSH connection to ${host} lost: ${reason}`);
    this.name = "ConnectionLostError";
  }
}

/**
 * A remote command ran longer than the command timeout. Its channel was closed and a KILL signal
 * requested, but OpenSSH refuses signals on root logins (no post-auth privilege separation), so
 * the command may still be running on the host.
 */
export class CommandTimeoutError extends Error {
  constructor(
    readonly host: string,
    readonly command: string,
    readonly timeoutMs: number,
  ) {
    super(`command timed out after ${timeoutMs / 1000}s on ${host}: ${command}`);
    this.name = "CommandTimeoutError";
  }
}

// Keep error messages readable: the full output stays on the error object.
function tail(text: string, max = 2000): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `...${trimmed.slice(-max)}` : trimmed;
}
