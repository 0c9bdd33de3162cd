// `tsx test/bench/trace-summary.ts <trace file>`: sums up an LVS_BENCH_TRACE file (see ssh-counter.js) per phase (a
// phase ends where no exec runs for 3 s): per kind of command (a host's lock shell opened, the lock taken in it, fact
// read, apply script) how many, their mean and median time, and for apply scripts the mean time per step.
import * as fs from "fs";

interface Exec {
  start: number;
  ms: number;
  kind: "shell" | "lock" | "read" | "apply" | "other";
  steps: number;
}

function parse(line: string): Exec {
  const [start, , ms, , , ...rest] = line.split(" ");
  const text = rest.join(" ");
  const what = JSON.parse(text.slice(0, text.indexOf('"', 1) + 1)) as string;
  const steps = /^(\d+) steps$/.exec(what);
  const kind = /'exec sh'$/.test(text)
    ? "shell"
    : text.includes("flock")
      ? "lock"
      : what === "read" || text.includes("lvs-pulumi-fact")
        ? "read"
        : steps
          ? "apply"
          : "other";
  return { start: Number(start), ms: Number(ms), kind, steps: steps ? Number(steps[1]) : 0 };
}

const execs = fs
  .readFileSync(process.argv[2], "utf8")
  .split("\n")
  .filter(Boolean)
  .map(parse)
  .sort((a, b) => a.start - b.start);
const phases: Exec[][] = [];
let busyUntil = -Infinity;
for (const exec of execs) {
  if (exec.start - busyUntil > 3000) phases.push([]);
  phases[phases.length - 1].push(exec);
  busyUntil = Math.max(busyUntil, exec.start + exec.ms);
}
for (const phase of phases) {
  const end = Math.max(...phase.map((e) => e.start + e.ms));
  console.log(`phase: ${phase.length} execs in ${((end - phase[0].start) / 1000).toFixed(1)} s`);
  for (const kind of ["shell", "lock", "read", "apply", "other"] as const) {
    const of = phase.filter((e) => e.kind === kind);
    if (of.length === 0) continue;
    const times = of.map((e) => e.ms).sort((a, b) => a - b);
    const sum = times.reduce((a, b) => a + b, 0);
    const steps = of.reduce((a, e) => a + e.steps, 0);
    const perStep = kind === "apply" ? `, ${steps} steps, ${(sum / steps).toFixed(0)} ms per step` : "";
    const held = kind === "shell" ? " open" : kind === "lock" ? " taken" : "";
    console.log(
      `  ${kind}: ${of.length}${held}, mean ${(sum / of.length).toFixed(0)} ms, median ${times[times.length >> 1]} ms, ` +
        `sum ${(sum / 1000).toFixed(1)} s${perStep}`,
    );
  }
}
