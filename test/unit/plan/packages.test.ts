import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { installPackage, PackageName } from "../../../provider/plan/packages";

// Runs the command with stand-in package managers on PATH: which one is used, with which arguments.
function run(managers: string[], name: PackageName = "keepalived"): string {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), "pkg-"));
  for (const tool of managers) {
    fs.writeFileSync(path.join(bin, tool), `#!/bin/sh\necho ${tool} "$@"\n`, { mode: 0o755 });
  }
  return execFileSync("/bin/sh", ["-c", installPackage(name)], {
    env: { PATH: `${bin}:/usr/bin/env-none` },
    encoding: "utf8",
  }).trim();
}

test("installs with apt-get, else dnf, else yum, non-interactively", () => {
  expect(run(["apt-get", "dnf", "yum"])).toBe("apt-get install -y -q keepalived");
  expect(run(["dnf", "yum"])).toBe("dnf install -y -q keepalived");
  expect(run(["yum"])).toBe("yum install -y -q keepalived");
});

test("the package name is quoted", () => {
  expect(installPackage("a b; reboot")).toContain("'a b; reboot'");
});

test("a package named differently per family: the Debian name for apt, the RPM name for dnf and yum", () => {
  const arping = { apt: "iputils-arping", rpm: "iputils" };
  expect(run(["apt-get", "dnf"], arping)).toBe("apt-get install -y -q iputils-arping");
  expect(run(["dnf"], arping)).toBe("dnf install -y -q iputils");
  expect(run(["yum"], arping)).toBe("yum install -y -q iputils");
});
