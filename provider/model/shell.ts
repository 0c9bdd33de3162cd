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
