import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ipvsadmVersionFact } from "../../../provider/facts/ipvsadm-version";

describe("ipvsadm --version", () => {
  const fact = ipvsadmVersionFact();
  it("reads the tool and IPVS versions", () => {
    expect(fact.parse("ipvsadm v1.31 2019/12/24 (compiled with popt and IPVS v1.2.1)\n")).toEqual({
      ipvsadm: "1.31",
      ipvs: "1.2.1",
    });
  });
  it("is undefined when ipvsadm is missing; a failing ipvsadm fails the read instead of passing for missing", () => {
    const sh = (path: string) => execFileSync("sh", ["-c", `PATH=${path}; ${fact.command}; echo rc=$?`]).toString();
    expect(sh("/nonexistent")).toBe("rc=0\n");
    expect(fact.parse("")).toBeUndefined();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ipvsadm-"));
    fs.writeFileSync(path.join(dir, "ipvsadm"), "#!/bin/sh\necho 'cannot initialize ipvs' >&2; exit 2\n", {
      mode: 0o755,
    });
    expect(sh(`${dir}:/usr/bin:/bin`)).toBe("rc=2\n");
    fs.rmSync(dir, { recursive: true });
  });
});
