import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { planFiles } from "../../../provider/plan/files";
import { applyScript, CHANGE_LOG_ROTATE_BYTES, failedStep } from "../../../provider/plan/script";
import { command } from "../../../provider/model/shell";

describe("applyScript under a real sh", () => {
  let dir: string;
  let log: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "apply-script-"));
    log = path.join(dir, "log", "changes.log");
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const runScript = (script: string) => spawnSync("sh", ["-c", script], { encoding: "utf8" });

  test("a failing step of a file write stops the script: nothing after it runs, the exit is non-zero", () => {
    const blocker = path.join(dir, "not-a-dir");
    fs.writeFileSync(blocker, "");
    const after = path.join(dir, "after");
    // mkdir of the file's folder fails (a file is in the way); the step after it must never run.
    const steps = [
      ...planFiles([{ path: path.join(blocker, "sub", "f.conf"), content: "x\n" }], {}),
      command("touch", after),
    ];
    const result = runScript(applyScript(steps, log));
    expect(result.status).not.toBe(0);
    expect(fs.existsSync(after)).toBe(false);
  });

  test("each of a file write's steps stops the script (printf into a missing folder, chmod, mv)", () => {
    // The folder exists but the temp file cannot be created: a directory of the same name is in the way.
    const target = path.join(dir, "f.conf");
    fs.mkdirSync(`${target}.lvs-pulumi-tmp`);
    fs.writeFileSync(path.join(`${target}.lvs-pulumi-tmp`, "keep"), "");
    const after = path.join(dir, "after");
    const result = runScript(
      applyScript([...planFiles([{ path: target, content: "x\n" }], {}), command("touch", after)], log),
    );
    expect(result.status).not.toBe(0);
    expect(fs.existsSync(after)).toBe(false);
  });
});

describe("applyScript: the change log", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "apply-log-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const runScript = (script: string, input = "") => spawnSync("sh", { input: script + input, encoding: "utf8" });

  test("read from stdin, a step that reads stdin gets nothing of the script; the failed step is named", () => {
    const log = path.join(dir, "changes.log");
    const out = path.join(dir, "swallowed");
    const result = runScript(applyScript([`cat > ${out}`, "false", "touch never"], log), "echo trailing input\n");
    expect(fs.readFileSync(out, "utf8")).toBe("");
    expect(failedStep(result.stderr)).toEqual({ step: 2, stderr: "" });
    expect(result.status).not.toBe(0);
  });

  test("root-only, bodies never in it, rotated past its limit", () => {
    const log = path.join(dir, "sub", "changes.log");
    const target = path.join(dir, "secret.json");
    const steps = planFiles([{ path: target, content: '{"original":"hidden-value"}' }], {});
    expect(runScript(applyScript(steps, log)).status).toBe(0);
    expect(fs.statSync(log).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(log)).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(log, "utf8")).toMatch(
      /^\S+Z write \S+secret\.json \(mode 0644, 27 bytes, sha256:\w{16}\)\n$/,
    );
    fs.appendFileSync(log, "x".repeat(CHANGE_LOG_ROTATE_BYTES));
    expect(runScript(applyScript(["true"], log)).status).toBe(0);
    expect(fs.readFileSync(log, "utf8")).toMatch(/^\S+Z true\n$/);
    expect(fs.statSync(`${log}.1`).size).toBeGreaterThan(CHANGE_LOG_ROTATE_BYTES);
  });
});
