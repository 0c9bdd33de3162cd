// One program of examples/ as a user runs it: `pulumi up` of its own project folder through the CLI-faithful engine,
// its hosts reached as the lab's non-root user with sudo through the jump host, traffic checked from the lab's
// client, then `pulumi destroy`, after which every host it touched is as before.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { PulumiStack, RunResult } from "../../harness/cli/stack";
import { fetchThroughVip, labHosts, tally } from "../../lab/lab";
import { hostSnapshot, sudoUserConnectionTo } from "../provider/fixture";

const examplesDir = path.resolve(__dirname, "../../../examples");

/** The examples' `hosts` config: every lab host's connection as the sudo user, the key included (a secret). */
export function labHostsConfig(): string {
  const { hosts, sudoUser } = labHosts();
  const privateKey = fs.readFileSync(sudoUser.privateKeyPath, "utf8");
  return JSON.stringify(
    Object.fromEntries(Object.keys(hosts).map((name) => [name, sudoUserConnectionTo(name, { privateKey })])),
  );
}

export interface Answered {
  vip: string;
  port: number;
  /** Who answers 6 requests, by real server name: an exact tally. */
  tally: Record<string, number>;
}

/** The example `name` (a folder of examples/) as a stack; `config` is set on the stack besides `hosts`. */
export function exampleStack(name: string, statePath: string, config: Record<string, unknown> = {}): PulumiStack {
  return new PulumiStack({
    root: path.join(examplesDir, name),
    stack: "lab",
    statePath,
    config: Object.fromEntries(Object.entries(config).map(([key, value]) => [`lvs-example-${name}:${key}`, value])),
    secretConfig: { [`lvs-example-${name}:hosts`]: labHostsConfig() },
  });
}

/** Retries `fetch` for up to a minute until its answers are `expected` (a checked service starts its checks first). */
export async function expectAnswers(expected: Answered): Promise<void> {
  const deadline = Date.now() + 60_000;
  let seen: Record<string, number> = {};
  do {
    seen = tally(await fetchThroughVip(expected.vip, expected.port, 6));
    if (JSON.stringify(seen) === JSON.stringify(expected.tally)) break;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  } while (Date.now() < deadline);
  expect({ vip: expected.vip, port: expected.port, answered: seen }).toEqual({
    vip: expected.vip,
    port: expected.port,
    answered: expected.tally,
  });
}

/** Up, the answers checked (then `more`), destroy: every host in `hosts` as before. */
export function describeExample(
  name: string,
  hosts: string[],
  answers: Answered[],
  more?: (stack: PulumiStack, up: RunResult, statePath: string) => Promise<void>,
): void {
  test(`examples/${name}: up serves ${answers.map((a) => `${a.vip}:${a.port}`).join(", ")}; destroy leaves ${hosts.join(", ")} as before`, async () => {
    const before = Object.fromEntries(await Promise.all(hosts.map(async (h) => [h, await hostSnapshot(h)])));
    const statePath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), `lvs-example-${name}-`)), "state.json");
    const stack = exampleStack(name, statePath);
    const up = await stack.up();
    expect(up.summary.created.length).toBeGreaterThan(0);
    for (const expected of answers) await expectAnswers(expected);
    if (more) await more(stack, up, statePath);
    await exampleStack(name, statePath).destroy();
    for (const h of hosts) expect({ host: h, state: await hostSnapshot(h) }).toEqual({ host: h, state: before[h] });
  }, 1_200_000);
}
