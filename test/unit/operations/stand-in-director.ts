// A director on the in-process SSH server for counting what operations send it. Reads run for real there (`ipvsadm`
// prints captured real output, test/fixtures/ipvsadm); change scripts are kept and never run on this machine: a
// stand-in `sh` keeps them, and can fail the step holding a chosen text the way applyScript reports a failure.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import type { Actor } from "../../../provider/plan/owners";
import { closeKeptShells } from "../../../provider/remote/lock";
import { closeAll } from "../../../provider/remote/pool";
import { configureRemote } from "../../../provider/remote/settings";
import { FakeServer, PASSWORD, startFakeServer } from "../remote/fake-ssh-server";

const fixtures = join(__dirname, "../../fixtures/ipvsadm");

// Only reads (fact batches, as the command or on stdin), the lock and its shell (which runs the holder's commands)
// run, in /bin/sh; reads are kept in $SCRIPTS as read-*. Anything else on stdin is a change script: kept in $SCRIPTS,
// never run.
const standInShell = [
  "#!/bin/sh",
  '[ "$#" -eq 0 ] && exec /bin/sh',
  // An exec's wrapper: the command it runs comes to this script next.
  'case "$2" in "sh -c "*) exec /bin/sh "$@" ;; esac',
  'case "$2" in *@@lvs-pulumi-fact@@*) printf "%s\\n" "$2" > "$SCRIPTS/read-$(date +%s%N)"; exec /bin/sh "$@" ;; esac',
  'case "$2" in "exec sh") exec /bin/sh "$@" ;; esac',
  "script=$(cat)",
  'case "$script" in *@@lvs-pulumi-fact@@*) printf "%s\\n" "$script" > "$SCRIPTS/read-$(date +%s%N)"; printf "%s\\n" "$script" | /bin/sh; exit ;; esac',
  'out="$SCRIPTS/$(date +%s%N).sh"; printf "%s\\n" "$script" > "$out"',
  '[ -n "$FAIL_ON$FAIL_ANY" ] || exit 0',
  // An IPVS command of its own, or a line of the batch's `ipvsadm -R`; with FAIL_ANY, any line of a step.
  'if [ -n "$FAIL_ON" ]; then',
  '  step=$(awk -v text="$FAIL_ON" \'/^lvs_step=/ { n = substr($0, 10) } /^(ipvsadm|-[AEDaed] )/ && index($0, text) { print n; exit }\' "$out")',
  '  message="Memory allocation problem"',
  "else",
  '  step=$(awk -v text="$FAIL_ANY" \'/^lvs_step=/ { n = substr($0, 10); next } n != "" && index($0, text) { print n; exit }\' "$out")',
  '  message="stand-in: failed at $FAIL_ANY"',
  "fi",
  '[ -z "$step" ] && exit 0',
  'echo "$message" >&2; echo "lvs-pulumi: failed at step $step" >&2; exit 1',
].join("\n");

const fakeIpvsadm = [
  "#!/bin/sh",
  'case "$*" in',
  `  "-Sn") cat ${fixtures}/ipvsadm-Sn.txt ;;`,
  `  "-Ln --exact --thresholds") cat ${fixtures}/ipvsadm-Ln-exact-thresholds.txt ;;`,
  `  *) echo "unexpected: ipvsadm $*" >&2; exit 2 ;;`,
  "esac",
].join("\n");

// A kernel built without loadable modules has no /proc/modules (some CI containers): there, it lists none loaded.
const procModulesCat = [
  "#!/bin/sh",
  'if [ "$*" = /proc/modules ] && [ ! -e /proc/modules ]; then exit 0; fi',
  'PATH="${PATH#*:}" exec cat "$@"',
].join("\n");

export interface StandInDirector {
  connection: { host: string; port: number; user: string; password: string; hostKey: string };
  /**
   * Forget what was counted; with `failOn`, the step of the first IPVS command holding that text fails; with
   * `anyLine` instead, the first step with any line holding that text.
   */
  reset(failOn?: string, options?: { anyLine?: string }): void;
  /**
   * SSH exec channels, of them lock shells (kept from one lock hold to the next), table and threshold reads and
   * change scripts seen, and per script the IPVS commands
   * with `verb` (steps of their own or lines of an `ipvsadm -R`).
   */
  counted(verb: string): {
    channels: number;
    locks: number;
    tableReads: number;
    thresholdReads: number;
    scripts: number;
    steps: number[];
  };
  /** The change scripts kept, in the order they came. */
  scripts(): string[];
  /** The fact batches read, in the order they came. */
  reads(): string[];
  /** Per change script: its `ipvsadm -R` runs. */
  restores(): number[];
  /** Per change script: the lines that start `program` (a step's own line, or a line of a file write). */
  programs(program: string): number[];
  close(): Promise<void>;
}

export async function startStandInDirector(): Promise<StandInDirector> {
  const bin = mkdtempSync(join(tmpdir(), "lvs-fake-bin-"));
  const scripts = mkdtempSync(join(tmpdir(), "lvs-fake-scripts-"));
  for (const [name, body] of [
    ["sh", standInShell],
    ["ipvsadm", fakeIpvsadm],
    ["cat", procModulesCat],
  ]) {
    writeFileSync(join(bin, name), `${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  const server: FakeServer = await startFakeServer();
  const reset = (failOn?: string, { anyLine }: { anyLine?: string } = {}) => {
    server.commands.length = 0;
    for (const file of readdirSync(scripts)) rmSync(join(scripts, file));
    const failures = { FAIL_ON: failOn ?? "", FAIL_ANY: anyLine ?? "" };
    server.env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, SCRIPTS: scripts, ...failures };
  };
  reset();
  const changeScripts = () =>
    readdirSync(scripts)
      .sort()
      .filter((file) => file.endsWith(".sh"))
      .map((file) => readFileSync(join(scripts, file), "utf8"));
  const linesStarting = (start: string) =>
    changeScripts().map((script) => script.split("\n").filter((line) => line.startsWith(start)).length);
  return {
    connection: {
      host: "127.0.0.1",
      port: server.port,
      user: "tester",
      password: PASSWORD,
      hostKey: server.fingerprint,
    },
    reset,
    counted: (verb) => {
      const kept = readdirSync(scripts).sort();
      const content = (file: string) => readFileSync(join(scripts, file), "utf8");
      const applied = kept.filter((file) => file.endsWith(".sh")).map(content);
      const reads = kept.filter((file) => file.startsWith("read-")).map(content);
      return {
        channels: server.commands.length,
        locks: server.commands.filter((c) => c === "sh -c 'exec sh'").length,
        tableReads: reads.filter((c) => c.includes("ipvsadm -Sn")).length,
        thresholdReads: reads.filter((c) => c.includes("--thresholds")).length,
        scripts: applied.length,
        steps: applied.map(
          (script) =>
            script.split("\n").filter((line) => line.startsWith(`ipvsadm ${verb} `) || line.startsWith(`${verb} `))
              .length,
        ),
      };
    },
    scripts: changeScripts,
    reads: () =>
      readdirSync(scripts)
        .sort()
        .filter((file) => file.startsWith("read-"))
        .map((file) => readFileSync(join(scripts, file), "utf8")),
    restores: () => linesStarting("lvs_out=$(ipvsadm -R"),
    programs: (program) => linesStarting(`${program} `),
    close: async () => {
      await server.close();
      rmSync(bin, { recursive: true, force: true });
      rmSync(scripts, { recursive: true, force: true });
    },
  };
}

/**
 * What `counted` shows of operations that ran in one lock shell (one SSH channel, kept from hold to hold) and read no
 * thresholds: the other counts as given.
 */
export function inOneShell(counts: { tableReads: number; scripts: number; steps: number[] }) {
  return { channels: 1, locks: 1, thresholdReads: 0, ...counts };
}

/** A stand-in director for the tests of one file: started before them, reset before each, closed after them. */
export function useStandInDirector(): () => StandInDirector {
  let director: StandInDirector | undefined;
  beforeAll(async () => {
    configureRemote({ backoffInitialMs: 20, backoffMaxMs: 200 });
    director = await startStandInDirector();
  });
  // Each test starts without a kept lock shell, so that it counts its own.
  beforeEach(() => {
    closeKeptShells();
    director?.reset();
  });
  afterAll(async () => {
    closeAll();
    await director?.close();
  });
  return () => {
    if (!director) throw new Error("the stand-in director is not started");
    return director;
  };
}

/** The resource a batch test acts for: one URN per entry, as Pulumi gives each resource its own. */
export const actorOf = (inputs: { address?: string }): Actor => ({
  urn: `urn:pulumi:test::lvs-pulumi::pulumi-nodejs:dynamic/lvs:Entry::${inputs.address ?? "fwmark"}`,
});
