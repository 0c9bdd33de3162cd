// `tsx test/bench/profile-summary.ts <folder> [top]`: sums up the V8 CPU profiles of a bench run (LVS_BENCH_PROFILE):
// per process, its wall time, busy time, and where the busy time went, by package (node_modules/<name>, this
// project's dist, node's own) and by function.
import * as fs from "fs";
import * as path from "path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a script belongs: a package under node_modules, this project's build, or node itself. */
function owner(url: string): string {
  if (url === "") return "(v8)";
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.includes("/dist/")) return `dist/${url.slice(url.indexOf("/dist/") + 6).split("/")[0]}`;
  if (url.startsWith("node:")) return "node";
  return path.basename(url);
}

function top(totals: Map<string, number>, count: number, busy: number): string[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(
      ([name, us]) =>
        `    ${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${name}`,
    );
}

const [folder, count = "12"] = process.argv.slice(2);
for (const file of fs.readdirSync(folder).filter((f) => f.endsWith(".cpuprofile"))) {
  const profile = JSON.parse(fs.readFileSync(path.join(folder, file), "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const us = profile.timeDeltas[i];
    if (functionName === "(idle)" || functionName === "(program)") return;
    busy += us;
    const who = functionName === "(garbage collector)" ? "(gc)" : owner(url);
    byOwner.set(who, (byOwner.get(who) ?? 0) + us);
    const fn = `${functionName || "(anonymous)"} ${path.basename(url)}:${lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  });
  const wall = (profile.endTime - profile.startTime) / 1000;
  console.log(`${file}: wall ${(wall / 1000).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s`);
  console.log("  by package:");
  console.log(top(byOwner, Number(count), busy).join("\n"));
  console.log("  by function:");
  console.log(top(byFunction, Number(count), busy).join("\n"));
}
