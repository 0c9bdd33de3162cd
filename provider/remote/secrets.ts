// Secret masking for anything that leaves this layer as text (errors, logs).
const registered = new Set<string>();
const MASK = "[secret]";

// Letters and digits always carry a token on. Of punctuation, only what joins the parts of one token (a host name,
// a path, base64) does, and only when the secret has it too; quotes, `=`, `:`, `,` and whitespace always end one.
const WORD = /[\p{L}\p{N}]/u;
const JOINER = /[._\-/+@%~]/;

/** Register an extra secret (e.g. a keepalived auth_pass) to mask in every error and log line. */
export function registerSecret(value: string | undefined): void {
  if (value) registered.add(value);
}

/**
 * Replace every occurrence of every secret (registered plus `extra`) that is a whole token with a mask. An occurrence
 * inside a longer token is left alone: a password "10" masked inside "198.51.100.40" would change the address and
 * reveal the password by what is left around it.
 */
export function maskSecrets(text: string, extra: readonly string[] = []): string {
  const spans: [number, number][] = [];
  for (const secret of new Set([...registered, ...extra])) {
    if (secret.length === 0) continue;
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) {
      if (isWholeToken(text, at, secret)) spans.push([at, at + secret.length]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  // Overlapping occurrences (of secrets sharing a part) become one mask, so no part of either shows.
  let out = "";
  let shown = 0;
  for (const [start, end] of spans) {
    if (start >= shown) out += text.slice(shown, start) + MASK;
    shown = Math.max(shown, end);
  }
  return out + text.slice(shown);
}

/**
 * Whether the occurrence of `secret` at `at` is bounded on both sides. A side where the secret's own edge cannot
 * continue a token (a PEM key's final newline) needs no bound: the secret ends there whatever follows.
 */
function isWholeToken(text: string, at: number, secret: string): boolean {
  const end = at + secret.length;
  const open = canContinue(secret[0]) && continuesToken(text, at - 1, -1, secret);
  const close = canContinue(secret[secret.length - 1]) && continuesToken(text, end, 1, secret);
  return !open && !close;
}

function canContinue(char: string): boolean {
  return WORD.test(char) || JOINER.test(char);
}

/** Whether the character at `index`, next to an occurrence of `secret`, carries its token on (away by `step`). */
function continuesToken(text: string, index: number, step: 1 | -1, secret: string): boolean {
  const char = text[index];
  if (char === undefined) return false;
  if (WORD.test(char)) return true;
  // A joiner continues the token only when the token goes on past it: "a.b" in "a.b.c", not in "a.b." at the end of
  // a sentence.
  return JOINER.test(char) && secret.includes(char) && WORD.test(text[index + step] ?? "");
}
