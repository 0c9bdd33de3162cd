// The steps of a batch's resources (one group each) merged into one script in which the programs a slow host pays
// for at every start (tens of ms each) run once per batch instead of once per resource: the files written to a folder
// are staged and moved into place by one `mv`, the files removed go in one `rm`, the IPVS commands in one
// `ipvsadm -R`. The order within each group holds: its files first (they only act at boot or on a reload), then its
// steps before its IPVS commands, its IPVS commands, its steps after them.
import { modeBits, stageDir } from "./files";
import { OwnedFile, Step, stepAudit, stepFile } from "./step";
import { restoreLine } from "../model/ipvsadm";
import { command, quote } from "../model/shell";

/** A step of the merged script and the groups it does work for. */
export interface MergedStep {
  step: Step;
  groups: number[];
}

interface GroupParts {
  writes: { file: OwnedFile; step: Step }[];
  removals: { path: string; step: Step }[];
  before: Step[];
  ipvs: { line: string; step: Step }[];
  after: Step[];
}

function partsOf(steps: Step[], writtenPaths: Set<string>): GroupParts {
  const parts: GroupParts = { writes: [], removals: [], before: [], ipvs: [], after: [] };
  for (const step of steps) {
    const removed = typeof step === "object" && "remove" in step ? step.remove : undefined;
    const file = stepFile(step);
    const line = typeof step === "object" && "ipvsadm" in step ? restoreLine(step) : undefined;
    if (file && file.content !== null && !writtenPaths.has(file.path)) {
      writtenPaths.add(file.path);
      parts.writes.push({ file, step });
    } else if (removed !== undefined) {
      parts.removals.push({ path: removed, step });
    } else if (line !== undefined && parts.after.length === 0) {
      parts.ipvs.push({ line, step });
    } else if (parts.ipvs.length === 0) {
      parts.before.push(step);
    } else {
      parts.after.push(step);
    }
  }
  return parts;
}

/** Writes files into one folder: each staged with its mode (umask, chmod only for execute bits), then one `mv`. */
function writeStep(dir: string, writes: GroupParts["writes"]): Step {
  const stage = stageDir(dir);
  const staged = writes.map(({ file }) => `${stage}/${file.path.slice(dir.length + 1)}`);
  const modes = writes.map(({ file: { mode = "0644" } }) => ({ mode, ...modeBits(mode) }));
  const lines = [
    `[ -d ${quote(stage)} ] || ${command("mkdir", "-p", stage)}`,
    // One subshell keeps the umasks from the rest of the script; a line each, so `set -e` stops at any failure. A file
    // left staged by a cut-off batch goes first: writing over it would keep its mode.
    "(",
    ...writes.flatMap(({ file }, i) => [
      `[ ! -e ${quote(staged[i])} ] || ${command("rm", "-f", staged[i])}`,
      `umask ${modes[i].umask}`,
      `printf '%s' ${quote(file.content!)} > ${quote(staged[i])}`,
    ]),
    ")",
    ...modes.flatMap(({ mode, chmod }, i) => (chmod ? [command("chmod", mode, staged[i])] : [])),
    command("mv", "-f", ...staged, dir),
  ];
  return { run: lines.join("\n"), audit: writes.map((w) => stepAudit(w.step)) };
}

/** All IPVS commands as one `ipvsadm -R`, which goes on past a failed line: any output at all fails the step. */
function restoreStep(ipvs: GroupParts["ipvs"]): Step {
  const run = [
    "lvs_out=$(ipvsadm -R 2>&1 <<'LVS_PULUMI_IPVS'",
    ...ipvs.map((i) => i.line),
    "LVS_PULUMI_IPVS",
    ") || true",
    `[ -z "$lvs_out" ] || { printf '%s\\n' "$lvs_out" >&2; exit 1; }`,
  ].join("\n");
  return { run, audit: ipvs.map((i) => stepAudit(i.step)) };
}

/** The merged script's steps, each with the groups it works for (`groups[i]` is group i's steps, in order). */
export function mergeGroups(groups: Step[][]): MergedStep[] {
  const writtenPaths = new Set<string>();
  const parts = groups.map((steps) => partsOf(steps, writtenPaths));
  const merged: MergedStep[] = [];

  const byDir = new Map<string, { writes: GroupParts["writes"]; groups: Set<number> }>();
  parts.forEach((p, g) =>
    p.writes.forEach((write) => {
      const dir = write.file.path.slice(0, write.file.path.lastIndexOf("/"));
      const entry = byDir.get(dir) ?? { writes: [], groups: new Set<number>() };
      entry.writes.push(write);
      entry.groups.add(g);
      byDir.set(dir, entry);
    }),
  );
  // A single file keeps its own write (a temp file beside it): stage folders only where batches write several.
  for (const [dir, { writes, groups: of }] of byDir) {
    merged.push({ step: writes.length === 1 ? writes[0].step : writeStep(dir, writes), groups: [...of] });
  }

  const removals = parts.flatMap((p, g) => p.removals.map((r) => ({ ...r, group: g })));
  if (removals.length > 0) {
    merged.push({
      step: { run: command("rm", "-f", ...removals.map((r) => r.path)), audit: removals.map((r) => stepAudit(r.step)) },
      groups: [...new Set(removals.map((r) => r.group))],
    });
  }

  parts.forEach((p, g) => p.before.forEach((step) => merged.push({ step, groups: [g] })));
  const ipvs = parts.flatMap((p, g) => p.ipvs.map((i) => ({ ...i, group: g })));
  if (ipvs.length > 0) {
    const step = ipvs.length === 1 ? ipvs[0].step : restoreStep(ipvs);
    merged.push({ step, groups: [...new Set(ipvs.map((i) => i.group))] });
  }
  parts.forEach((p, g) => p.after.forEach((step) => merged.push({ step, groups: [g] })));
  return merged;
}
