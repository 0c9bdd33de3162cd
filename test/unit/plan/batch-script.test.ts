import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { mergeGroups } from "../../../provider/plan/batch-script";
import { planFiles, stageDir } from "../../../provider/plan/files";
import { applyScript, failedStep } from "../../../provider/plan/script";
import { Step, stepAudit, stepRun } from "../../../provider/plan/step";
import { command } from "../../../provider/model/shell";

// An ipvsadm command as the plan files keep it: data, written out only by the script.
const ipvs = (line: string): Step => ({ ipvsadm: line.split(" ") as [never, ...string[]] });

describe("mergeGroups", () => {
  const write = (p: string) => planFiles([{ path: p, content: `${p}\n` }], {})[0];

  test("files of all groups first (several in one folder: one step), removals in one, then before, IPVS, after", () => {
    const groups = [
      [write("/d/a"), "iptables -t nat -A one", ipvs("-a -t 1.1.1.1:80 -r 2.2.2.1:80"), "iptables -A after-one"],
      [{ remove: "/d/old" }, write("/d/b"), ipvs("-a -t 1.1.1.1:80 -r 2.2.2.2:80")],
      [write("/e/c"), ipvs("-d -t 1.1.1.1:80 -r 2.2.2.3:80"), "rmdir /e"],
    ];
    const merged = mergeGroups(groups);
    expect(merged.map((m) => [stepAudit(m.step).replace(/ \(mode.*?\)/g, ""), m.groups])).toEqual([
      ["write /d/a; write /d/b", [0, 1]],
      ["write /e/c", [2]],
      ["rm -f /d/old", [1]],
      ["iptables -t nat -A one", [0]],
      [
        "ipvsadm -a -t 1.1.1.1:80 -r 2.2.2.1:80; ipvsadm -a -t 1.1.1.1:80 -r 2.2.2.2:80; " +
          "ipvsadm -d -t 1.1.1.1:80 -r 2.2.2.3:80",
        [0, 1, 2],
      ],
      ["iptables -A after-one", [0]],
      ["rmdir /e", [2]],
    ]);
    // A single file in its folder keeps its own step.
    expect(merged[1].step).toBe(groups[2][0]);
  });

  test.each<[string, Step]>([
    ["a shell line that runs ipvsadm", "ipvsadm -a -t 1.1.1.1:80 -r 2.2.2.2:80"],
    ["a script step", { run: "ipvsadm -A -t 1.1.1.1:80", audit: "x" }],
  ])("%s is never read back into the -R batch", (_what, step) => {
    const merged = mergeGroups([
      [ipvs("-a -t 1.1.1.1:80 -r 2.2.2.1:80"), step, ipvs("-d -t 1.1.1.1:80 -r 2.2.2.3:80")],
    ]);
    expect(merged.map((m) => m.step)).toContain(step);
  });

  test("one IPVS command keeps its own step; one after another step of its group stays where it is", () => {
    const merged = mergeGroups([[ipvs("-A -t 1.1.1.1:80 -s rr"), "true", ipvs("-E -t 1.1.1.1:80 -s wrr")]]);
    expect(merged.map((m) => stepRun(m.step))).toEqual([
      "ipvsadm -A -t 1.1.1.1:80 -s rr",
      "true",
      "ipvsadm -E -t 1.1.1.1:80 -s wrr",
    ]);
  });
});

describe("a merged script under a real sh", () => {
  let dir: string;
  let bin: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "batch-script-"));
    bin = path.join(dir, "bin");
    fs.mkdirSync(bin);
    // ipvsadm -R as the real one: reads every line, reports a failed line on stderr, goes on, exits 0 when the last
    // line was fine.
    fs.writeFileSync(
      path.join(bin, "ipvsadm"),
      '#!/bin/sh\n[ "$1" = -R ] || exit 2\nwhile read -r line; do echo "$line" >> "$IPVS_LINES"\n' +
        'case "$line" in *"$FAIL_ON"*) [ -n "$FAIL_ON" ] && echo "Destination already exists" >&2 ;; esac; done\n',
      { mode: 0o755 },
    );
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const run = (groups: Parameters<typeof mergeGroups>[0], failOn = "") => {
    const log = path.join(dir, "log", "changes.log");
    const script = applyScript(
      mergeGroups(groups).map((m) => m.step),
      log,
    );
    const env = {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      IPVS_LINES: path.join(dir, "lines"),
      FAIL_ON: failOn,
    };
    return { result: spawnSync("sh", { input: script, env, encoding: "utf8" }), log };
  };

  test("files land byte for byte with their modes, one log line per change, nothing left staged", () => {
    const target = path.join(dir, "etc");
    const content = 'it\'s $HOME `x` "q"\n';
    const groups = [
      planFiles([{ path: `${target}/a`, content }], {}),
      planFiles([{ path: `${target}/b`, content: "b", mode: "0600" }], {}),
      planFiles([{ path: `${target}/c`, content: "#!/bin/sh\n", mode: "0700" }], {}),
      [{ remove: path.join(dir, "gone") }],
    ];
    fs.writeFileSync(path.join(dir, "gone"), "");
    const { result, log } = run(groups);
    expect(result.status).toBe(0);
    expect(fs.readFileSync(`${target}/a`, "utf8")).toBe(content);
    const mode = (p: string) => (fs.statSync(p).mode & 0o777).toString(8);
    expect([mode(`${target}/a`), mode(`${target}/b`), mode(`${target}/c`)]).toEqual(["644", "600", "700"]);
    expect(fs.readdirSync(stageDir(target))).toEqual([]);
    expect(fs.existsSync(path.join(dir, "gone"))).toBe(false);
    expect(fs.readFileSync(log, "utf8").split("\n").filter(Boolean)).toHaveLength(4);
  });

  test("a file left staged by a cut-off batch is replaced: the mode is the wanted one", () => {
    const target = path.join(dir, "etc");
    fs.mkdirSync(stageDir(target), { recursive: true });
    fs.writeFileSync(path.join(stageDir(target), "a"), "left over, longer than the content\n");
    fs.chmodSync(path.join(stageDir(target), "a"), 0o666);
    const groups = [
      planFiles([{ path: `${target}/a`, content: "a\n" }], {}),
      planFiles([{ path: `${target}/b`, content: "b\n" }], {}),
    ];
    expect(run(groups).result.status).toBe(0);
    expect(fs.readFileSync(`${target}/a`, "utf8")).toBe("a\n");
    expect((fs.statSync(`${target}/a`).mode & 0o777).toString(8)).toBe("644");
  });

  test("IPVS commands go to one ipvsadm -R; a line it reports stops the script there with its message", () => {
    const groups = [
      [ipvs("-a -t 1.1.1.1:80 -r 2.2.2.1:80 -g -w 1"), command("touch", path.join(dir, "after-1"))],
      [ipvs("-a -t 1.1.1.1:80 -r 2.2.2.2:80 -g -w 1")],
    ];
    const ok = run(groups);
    expect(ok.result.status).toBe(0);
    expect(fs.readFileSync(path.join(dir, "lines"), "utf8")).toBe(
      "-a -t 1.1.1.1:80 -r 2.2.2.1:80 -g -w 1\n-a -t 1.1.1.1:80 -r 2.2.2.2:80 -g -w 1\n",
    );
    expect(fs.existsSync(path.join(dir, "after-1"))).toBe(true);

    fs.rmSync(path.join(dir, "after-1"));
    const failed = run(groups, "2.2.2.1:80");
    expect(failed.result.status).not.toBe(0);
    // Step 1 is the restore: the step after it never ran.
    expect(failedStep(failed.result.stderr)).toEqual({ step: 1, stderr: "Destination already exists\n" });
    expect(fs.existsSync(path.join(dir, "after-1"))).toBe(false);
  });
});
