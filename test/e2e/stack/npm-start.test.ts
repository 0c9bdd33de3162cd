// `npm start` and `npm start -- destroy` exactly as a user runs them (the README's main command), on the running lab:
// the lab stack deployed, each VIP answered by the real servers the stack puts behind it, then every host as before.
import { execFile } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { labStateDir } from "../../lab/lab";
import { hostSnapshot } from "../provider/fixture";

const repoRoot = path.resolve(__dirname, "../../..");
const HOSTS = ["dir1", "dir2", "rs1", "rs2", "nrs1", "nrs2", "trs1"];

function npmStart(...args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      "npm",
      ["start", "--silent", ...(args.length ? ["--", ...args] : [])],
      // No Pulumi CLI on these machines: PATH is left as it is, so the command says so and uses the test engine.
      { cwd: repoRoot, timeout: 1_200_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** `tcp:VIP:80 from client: rs1 rs2 …` -> the set of real servers that answered. */
function answeredBy(output: string, vip: string): string[] {
  const line = output.split("\n").find((l) => l.startsWith(`${vip} from client: `));
  if (!line) throw new Error(`no line for ${vip} in:\n${output}`);
  const names = line.slice(`${vip} from client: `.length).split("  (")[0].split(" ");
  return [...new Set(names)].sort();
}

describe("npm start", () => {
  const before: Record<string, string> = {};
  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
  });

  test("deploys the lab stack and shows each VIP answered by its real servers; destroy leaves the hosts as they were", async () => {
    const up = await npmStart();
    console.log(up.output);
    expect(up.code).toBe(0);
    expect(up.output).toContain("The Pulumi CLI is not on PATH");
    expect(up.output).toMatch(/dir1: ipvsadm -Ln\n[\s\S]*TCP {2}198\.51\.100\.46:80 wrr/);
    expect(answeredBy(up.output, "tcp:198.51.100.46:80")).toEqual(["rs1", "rs2"]);
    expect(answeredBy(up.output, "tcp:198.51.100.47:80")).toEqual(["nrs1", "nrs2"]);
    expect(answeredBy(up.output, "tcp:198.51.100.48:80")).toEqual(["trs1"]);
    expect(answeredBy(up.output, "tcp:[2001:db8:1::101]:80")).toEqual(["rs1"]);
    expect(fs.existsSync(path.join(labStateDir, "pulumi", "state.json"))).toBe(true);

    const destroyed = await npmStart("destroy");
    console.log(destroyed.output);
    expect(destroyed.code).toBe(0);
    expect(destroyed.output).toContain("- 13 delete");
    for (const h of HOSTS) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });
  }, 1_800_000);
});
