// The provider's floors import only downward, and no files import each other in a circle (README "Architecture").
import * as fs from "fs";
import * as path from "path";

const ROOT = path.join(__dirname, "../../provider");
/** Lowest first: a file may import its own folder and the folders below it. */
const FLOORS = [
  "model",
  "schemas",
  "facts",
  "render",
  "plan",
  "remote",
  "operations",
  "kinds",
  "runtime",
  "resources",
  "cluster",
];

function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : [],
    );
}

function resolve(from: string, spec: string): string {
  const target = path.resolve(path.dirname(from), spec);
  return fs.existsSync(`${target}.ts`) ? `${target}.ts` : path.join(target, "index.ts");
}

const files = sources(ROOT);
const imports = new Map(
  files.map((file) => {
    const text = fs.readFileSync(file, "utf8");
    const specs = [...text.matchAll(/(?:from|import|require\()\s*["'](\.[^"']+)["']/g)].map((m) => m[1]);
    return [file, specs.map((spec) => resolve(file, spec))];
  }),
);
const floorOf = (file: string) => FLOORS.indexOf(path.relative(ROOT, file).split(path.sep)[0]);

test("every folder of provider/ has a floor", () => {
  const folders = fs.readdirSync(ROOT, { withFileTypes: true }).filter((e) => e.isDirectory());
  expect(folders.map((e) => e.name).filter((name) => !FLOORS.includes(name))).toEqual([]);
});

test("imports go only downward; the ground floor imports nothing of ours", () => {
  const upward = files
    .filter((file) => floorOf(file) >= 0)
    .flatMap((file) =>
      (imports.get(file) ?? [])
        .filter((target) => floorOf(target) > floorOf(file) || floorOf(target) < 0)
        .map((target) => `${path.relative(ROOT, file)} -> ${path.relative(ROOT, target)}`),
    );
  expect(upward).toEqual([]);
  const model = files.filter((file) => floorOf(file) === 0);
  expect(model.flatMap((file) => (imports.get(file) ?? []).filter((t) => floorOf(t) !== 0))).toEqual([]);
});

test("no import cycle", () => {
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (file: string, trail: string[]) => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "open") {
      cycles.push([...trail.slice(trail.indexOf(file)), file].map((f) => path.relative(ROOT, f)).join(" -> "));
      return;
    }
    state.set(file, "open");
    for (const target of imports.get(file) ?? []) visit(target, [...trail, file]);
    state.set(file, "done");
  };
  files.forEach((file) => visit(file, []));
  expect(cycles).toEqual([]);
});

/** Whether a file has code that runs (not only types, interfaces and re-exports): that code has a test. */
function hasRuntimeCode(file: string): boolean {
  return /^(export )?(default )?(async )?(function|const|let|class|enum) /m.test(fs.readFileSync(file, "utf8"));
}

test("test/unit mirrors provider/: each source file with code has its test at the same relative path", () => {
  const untested = files
    .filter(hasRuntimeCode)
    .map((file) => path.relative(ROOT, file))
    .filter((relative) => !fs.existsSync(path.join(__dirname, relative.replace(/\.ts$/, ".test.ts"))));
  expect(untested).toEqual([]);
});

test("no two top-level functions, classes or constants of provider/ share a name", () => {
  const declared = new Map<string, string[]>();
  for (const file of files) {
    const text = fs.readFileSync(file, "utf8");
    for (const m of text.matchAll(/^(?:export )?(?:async )?(?:function|const|let|class) (\w+)/gm)) {
      declared.set(m[1], [...(declared.get(m[1]) ?? []), path.relative(ROOT, file)]);
    }
  }
  expect([...declared].filter(([, where]) => where.length > 1).map(([name, where]) => `${name}: ${where}`)).toEqual([]);
});
