import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parseIpvsadmVersion } from "../../../provider/facts/ipvsadm-version";
import { installPackage, PackageName, planDirectorPackages } from "../../../provider/plan/packages";

// Runs the command with stand-in package managers on PATH: which one is used, with which arguments.
function runCommand(managers: string[], script: string): string {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), "pkg-"));
  for (const tool of managers) {
    fs.writeFileSync(path.join(bin, tool), `#!/bin/sh\necho ${tool} "$@"\n`, { mode: 0o755 });
  }
  return execFileSync("/bin/sh", ["-c", script], {
    env: { PATH: `${bin}:/usr/bin/env-none` },
    encoding: "utf8",
  }).trim();
}

const run = (managers: string[], name: PackageName = "keepalived") => runCommand(managers, installPackage(name));

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

describe("a director's programs", () => {
  // What ipvsadm v1.31 (Debian 12) prints for --version.
  const ipvsadm = parseIpvsadmVersion("ipvsadm v1.31 2019/12/24 (compiled with popt and IPVS v1.2.1)\n");
  const none = { ipvsadm: undefined, arping: false, iptables: false };

  test("all there: nothing to install, whether installPackages is set or not", () => {
    expect(planDirectorPackages({ ipvsadm, arping: true, iptables: true }, true, "dir1")).toEqual([]);
    expect(planDirectorPackages({ ipvsadm, arping: true, iptables: true }, false, "dir1")).toEqual([]);
  });

  test("without installPackages a missing ipvsadm or arping is refused, naming them; a missing iptables is not", () => {
    expect(() => planDirectorPackages(none, false, "root@198.51.100.11:22")).toThrow(
      "host root@198.51.100.11:22: ipvsadm and arping not installed; install or set installPackages: true",
    );
    expect(() => planDirectorPackages({ ...none, ipvsadm }, false, "dir1")).toThrow("host dir1: arping not installed");
    expect(planDirectorPackages({ ipvsadm, arping: true, iptables: false }, false, "dir1")).toEqual([]);
  });

  test("with installPackages every missing program is installed from its package, iptables too", () => {
    const steps = planDirectorPackages(none, true, "dir1");
    expect(steps.map((step) => runCommand(["apt-get"], step))).toEqual([
      "apt-get install -y -q ipvsadm",
      "apt-get install -y -q iputils-arping",
      "apt-get install -y -q iptables",
    ]);
    expect(runCommand(["dnf"], steps[1])).toBe("dnf install -y -q iputils");
    expect(planDirectorPackages({ ipvsadm, arping: true, iptables: false }, true, "dir1")).toEqual([
      installPackage("iptables"),
    ]);
  });
});
