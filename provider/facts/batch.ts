import { Fact } from "./fact";

// Several facts in one SSH round trip: each command's stdout follows a marker line, and its exit code is kept.

const FACT_SEPARATOR = "@@lvs-pulumi-fact@@";

type Facts = Record<string, Fact<unknown>>;
export type FactValues<F extends Facts> = { [K in keyof F]: F[K] extends Fact<infer T> ? T : never };

export function batchCommand(facts: Facts): string {
  return Object.entries(facts)
    .map(
      ([name, fact]) =>
        `printf '\\n${FACT_SEPARATOR} %s\\n' ${name}; ${fact.inShell ? `{ ${fact.command}; }` : `( ${fact.command} )`}; ` +
        `printf '\\n${FACT_SEPARATOR} rc=%s\\n' $?`,
    )
    .join("\n");
}

/** A read that failed is an error naming the fact, its command and what it printed. */
export class FactReadError extends Error {
  constructor(
    readonly fact: string,
    readonly command: string,
    readonly exitCode: number,
  ) {
    super(`reading ${fact} failed: \`${command}\` exited ${exitCode}`);
  }
}

export function parseBatch<F extends Facts>(facts: F, stdout: string): FactValues<F> {
  const values: Record<string, unknown> = {};
  for (const [name, fact] of Object.entries(facts)) {
    const start = stdout.indexOf(`\n${FACT_SEPARATOR} ${name}\n`);
    if (start < 0) throw new Error(`fact ${name}: no output section`);
    const bodyStart = start + FACT_SEPARATOR.length + name.length + 3;
    const end = stdout.indexOf(`\n${FACT_SEPARATOR} rc=`, bodyStart);
    const rc = Number(/rc=(\d+)/.exec(stdout.slice(end))?.[1]);
    if (rc !== 0) throw new FactReadError(name, fact.command, rc);
    values[name] = fact.parse(stdout.slice(bodyStart, end));
  }
  return values as FactValues<F>;
}
