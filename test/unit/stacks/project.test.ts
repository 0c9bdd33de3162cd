// This repository's own project (Pulumi.yaml + Pulumi.lab.yaml) previewed exactly as `pulumi preview -s lab` runs
// it: `main` resolved as the CLI does, the program started by the SDK's runner in that folder with the project's
// TypeScript settings, a preview (check and diff only, no host contacted). A `main` the CLI resolves to another
// entry point, a path resolved from the wrong folder or a tsconfig ts-node cannot use fails this test.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describeStep, PulumiStack } from "../../harness/cli/stack";
import { FAKE_KEY, writeFakeLabHosts } from "../fixtures/lab-hosts";
import { LAB_STACK_CREATES, LAB_STACK_VIPS } from "../../fixtures/lab-stack";

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
    expect(preview.steps.map(describeStep).sort()).toEqual(LAB_STACK_CREATES);
    expect(preview.outputs.vips).toEqual(LAB_STACK_VIPS);
    expect(lines.join("\n")).not.toContain("not-a-real-key");
    expect(fs.existsSync(path.join(dir, "state.json"))).toBe(false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
