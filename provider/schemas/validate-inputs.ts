import { z } from "zod";

/** Pulumi's CheckFailure. */
export interface CheckFailure {
  property: string;
  reason: string;
}

export interface CheckResult<T> {
  inputs?: T;
  failures: CheckFailure[];
}

// Values of these properties never appear in a reason, even when they are the bad value.
const SECRET_PROPERTIES = new Set(["password", "privateKey", "privateKeyPassword"]);
const MAX_SHOWN = 80;

/** Validates raw inputs; each zod issue becomes a failure whose reason names the property and quotes the value. */
export function validateInputs<S extends z.ZodType>(schema: S, raw: unknown): CheckResult<z.output<S>> {
  const result = schema.safeParse(raw);
  if (result.success) return { inputs: result.data, failures: [] };
  return { failures: result.error.issues.map((issue) => toFailure(issue, raw)) };
}

function toFailure(issue: z.core.$ZodIssue, raw: unknown): CheckFailure {
  const path = issue.path.map(String);
  const property = path.join(".");
  const value = valueAt(raw, path);
  const name = property || "inputs";
  if (value === undefined) {
    return { property, reason: `${name}: ${issue.code === "invalid_type" ? "is required" : issue.message}` };
  }
  // zod's own wording for a wrong type; an integer check keeps the schema's range message.
  const message =
    issue.code === "invalid_type" && issue.expected !== "int" ? `is not ${article(issue.expected)}` : issue.message;
  const secret = SECRET_PROPERTIES.has(path[path.length - 1] ?? "");
  return { property, reason: secret ? `${name}: ${message}` : `${name}: ${show(value)} ${message}` };
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function valueAt(raw: unknown, path: string[]): unknown {
  let current = raw;
  for (const segment of path) {
    // A string where the schema expands a shorthand ("VIP" for {address: VIP}) is the value the issue is about.
    if (typeof current === "string") return current;
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

// Objects are not printed: they may hold secrets (a connection with a password).
function show(value: unknown): string {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) return "(object)";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}
