import { IpvsadmCommand } from "../model/ipvsadm";
import { command } from "../model/shell";

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
export type Step = string | ScriptStep | IpvsadmCommand | FileRemoval;

export interface ScriptStep {
  run: string;
  audit: string | string[];
  file?: OwnedFile;
}

/** `rm -f` of one file we own, kept as its path so that a batch removes many in one command. */
export interface FileRemoval {
  remove: string;
}

export function stepRun(step: Step): string {
  if (typeof step === "string") return step;
  if ("ipvsadm" in step) return command("ipvsadm", ...step.ipvsadm);
  if ("remove" in step) return command("rm", "-f", step.remove);
  return step.run;
}

export function stepAudit(step: Step): string {
  return auditLines(step).join("; ");
}

export function auditLines(step: Step): string[] {
  if (typeof step === "string" || !("audit" in step)) return [stepRun(step)];
  return typeof step.audit === "string" ? [step.audit] : step.audit;
}

/** The file a write step writes; undefined for any other step. */
export function stepFile(step: Step): OwnedFile | undefined {
  return typeof step === "object" && "file" in step ? step.file : undefined;
}
