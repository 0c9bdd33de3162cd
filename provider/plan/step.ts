/** A file we own: its wanted content (null: it must not exist) and mode. */
export interface OwnedFile {
  path: string;
  content: string | null;
  mode?: string;
}

/**
 * A changing command; `audit` is what the change log and errors show instead of `run` (file bodies stay out), one
 * line per change for a step that makes several (batch-script.ts). `file`: the file a write step writes.
 */
export type Step = string | { run: string; audit: string | string[]; file?: OwnedFile };

export function stepRun(step: Step): string {
  return typeof step === "string" ? step : step.run;
}

export function stepAudit(step: Step): string {
  return auditLines(step).join("; ");
}

export function auditLines(step: Step): string[] {
  return typeof step === "string" ? [step] : typeof step.audit === "string" ? [step.audit] : step.audit;
}
