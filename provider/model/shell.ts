// Tokens made only of these characters mean the same to sh quoted or not (addresses, keys, module names).
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** POSIX single-quote quoting for a value passed to `sh -c`. */
export function quote(value: string): string {
  if (SAFE.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Joins an argv into one command line, quoting every argument. */
export function command(...argv: string[]): string {
  return argv.map(quote).join(" ");
}

/** The value of one word as quote() writes it; undefined for anything else (several words, expansions). */
export function unquoteWord(word: string): string | undefined {
  if (SAFE.test(word)) return word;
  const inner = /^'([^']*)'$/.exec(word)?.[1];
  return inner !== undefined && quote(inner) === word ? inner : undefined;
}
