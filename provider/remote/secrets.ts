// Secret masking for anything that leaves this layer as text (errors, logs).
const registered = new Set<string>();
const MASK = "[secret]";

/** Register an extra secret (e.g. a keepalived auth_pass) to mask in every error and log line. */
export function registerSecret(value: string | undefined): void {
  if (value) registered.add(value);
}

/** Replace every occurrence of every secret (registered plus `extra`) with a mask. */
export function maskSecrets(text: string, extra: readonly string[] = []): string {
  // Longest first, so a secret that contains another is masked whole.
  const all = [...new Set([...registered, ...extra])].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of all) out = out.split(secret).join(MASK);
  return out;
}
