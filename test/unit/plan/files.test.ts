import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { planFiles } from "../../../provider/plan/files";
import { stepRun } from "../../../provider/plan/step";

describe("planFiles", () => {
  test("only files whose content differs produce commands", () => {
    const live = { "/etc/a": "same\n", "/etc/b": "old\n", "/etc/c": "gone\n" };
    const commands = planFiles(
      [
        { path: "/etc/a", content: "same\n" },
        { path: "/etc/b", content: "new\n" },
        { path: "/etc/c", content: null },
        { path: "/etc/d", content: null },
      ],
      live,
    );
    expect(commands).toEqual([
      {
        run:
          "[ -d /etc ] || mkdir -p /etc\n[ ! -e /etc/b.lvs-pulumi-tmp ] || rm -f /etc/b.lvs-pulumi-tmp\n" +
          "(umask 0133 && printf '%s' 'new\n' > /etc/b.lvs-pulumi-tmp)\nmv -f /etc/b.lvs-pulumi-tmp /etc/b",
        audit: "write /etc/b (mode 0644, 4 bytes, sha256:7aa7a5359173d05b)",
        file: { path: "/etc/b", content: "new\n", mode: "0644" },
      },
      { remove: "/etc/c" },
    ]);
  });

  test("content with quotes, $ and newlines is written byte for byte by a real sh", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plan-files-"));
    const target = path.join(dir, "sub", "file.conf");
    const content = 'it\'s $HOME `date` "x"\n;reboot\n';
    for (const cmd of planFiles([{ path: target, content, mode: "0600" }], {}))
      execFileSync("sh", ["-c", stepRun(cmd)]);
    expect(fs.readFileSync(target, "utf8")).toBe(content);
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
    fs.rmSync(dir, { recursive: true });
  });

  test.each(["0644", "0600", "0700", "0755"])(
    "mode %s is exact, also over a temp file left with another mode",
    (mode) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plan-files-"));
      const target = path.join(dir, "file");
      fs.writeFileSync(`${target}.lvs-pulumi-tmp`, "left by a run that was cut off, longer than the content\n");
      fs.chmodSync(`${target}.lvs-pulumi-tmp`, 0o666);
      for (const cmd of planFiles([{ path: target, content: "x\n", mode }], {}))
        execFileSync("sh", ["-c", stepRun(cmd)]);
      expect(fs.readFileSync(target, "utf8")).toBe("x\n");
      expect((fs.statSync(target).mode & 0o777).toString(8).padStart(4, "0")).toBe(mode);
      expect(fs.existsSync(`${target}.lvs-pulumi-tmp`)).toBe(false);
      fs.rmSync(dir, { recursive: true });
    },
  );
});
