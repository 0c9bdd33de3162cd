// This repository's own project (Pulumi.yaml + Pulumi.lab.yaml) previewed exactly as `pulumi preview -s lab` runs
// it: `main` resolved as the CLI does, the program started by the SDK's runner in that folder with the project's
// TypeScript settings, a preview (check and diff only, no host contacted). A `main` the CLI resolves to another
// entry point, a path resolved from the wrong folder or a tsconfig ts-node cannot use fails this test.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describeStep, PulumiStack } from "../../harness/cli/stack";
import { FAKE_KEY, writeFakeLabHosts } from "../fixtures/lab-hosts";

jest.setTimeout(180_000);

const repoRoot = path.resolve(__dirname, "../../..");

test("pulumi preview -s lab: the lab stack's 13 resources planned, its outputs computed", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lvs-project-"));
  try {
    // Relative, as Pulumi.lab.yaml's own `.lab/hosts.json` is: it only resolves from the project root.
    const hostsFile = path.relative(repoRoot, writeFakeLabHosts(dir));
    const lines: string[] = [];
    const stack = new PulumiStack({
      root: repoRoot,
      stack: "lab",
      statePath: path.join(dir, "state.json"),
      config: { "lvs:labHostsFile": hostsFile },
      secretConfig: { "lvs:sshPrivateKey": FAKE_KEY },
      print: (line) => lines.push(line),
    });
    const preview = await stack.preview();
    expect(preview.steps.map(describeStep).sort()).toEqual(
      [
        "Director lvs-dir1",
        "Director lvs-dir2",
        "HAPair lvs-pair",
        "VirtualService lvs-web-dr",
        "VirtualService lvs-web-nat",
        "VirtualService lvs-web-tun",
        "VirtualService lvs-web6",
        "RealServer lvs-web-dr-rs1",
        "RealServer lvs-web-dr-rs2",
        "RealServer lvs-web-nat-nrs1",
        "RealServer lvs-web-nat-nrs2",
        "RealServer lvs-web-tun-trs1",
        "RealServer lvs-web6-rs1",
      ]
        .map((r) => `+ lvs:${r} create`)
        .sort(),
    );
    expect(preview.outputs.vips).toEqual([
      "tcp:198.51.100.46:80",
      "tcp:198.51.100.47:80",
      "tcp:198.51.100.48:80",
      "tcp:[2001:db8:1::101]:80",
    ]);
    expect(lines.join("\n")).not.toContain("not-a-real-key");
    expect(fs.existsSync(path.join(dir, "state.json"))).toBe(false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
