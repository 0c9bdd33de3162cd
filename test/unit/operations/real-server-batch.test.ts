// What reaches a director when many real servers are written at once: counted on the in-process SSH server. Reads
// run for real there (`ipvsadm` prints captured real output, test/fixtures/ipvsadm); change scripts are kept and
// never run on this machine (a stand-in `sh`, which can fail the step that adds a chosen RIP as a host reports it).
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { applyRealServer, removeRealServer } from "../../../provider/operations/real-server";
import { closeAll } from "../../../provider/remote/pool";
import { configureRemote } from "../../../provider/remote/settings";
import { realServerInputsSchema } from "../../../provider/schemas/realServer";
import { FakeServer, PASSWORD, startFakeServer } from "../remote/fake-ssh-server";

const fixtures = join(__dirname, "../../fixtures/ipvsadm");
let director: FakeServer;
let bin: string;
let scripts: string;

// Only reads (fact batches, as the command or on stdin) and the lock run, in /bin/sh, reads on stdin kept in $SCRIPTS
// as read-*; anything else on stdin is a change script: kept in $SCRIPTS, never run. With $FAIL_RIP, the step adding
// that RIP fails the way applyScript reports it.
const standInShell = [
  "#!/bin/sh",
  'case "$2" in *@@lvs-pulumi-fact@@*|*flock*) exec /bin/sh "$@" ;; esac',
  "script=$(cat)",
  'case "$script" in *@@lvs-pulumi-fact@@*) printf "%s\\n" "$script" > "$SCRIPTS/read-$(date +%s%N)"; printf "%s\\n" "$script" | /bin/sh; exit ;; esac',
  'out="$SCRIPTS/$(date +%s%N).sh"; printf "%s\\n" "$script" > "$out"',
  '[ -n "$FAIL_RIP" ] || exit 0',
  'step=$(awk -v rip="$FAIL_RIP" \'/^lvs_step=/ { n = substr($0, 10) } /^ipvsadm -a/ && index($0, rip) { print n; exit }\' "$out")',
  '[ -z "$step" ] && exit 0',
  'echo "Memory allocation problem" >&2; echo "lvs-pulumi: failed at step $step" >&2; exit 1',
].join("\n");

const fakeIpvsadm = [
  "#!/bin/sh",
  'case "$*" in',
  `  "-Sn") cat ${fixtures}/ipvsadm-Sn.txt ;;`,
  `  "-Ln --exact --thresholds") cat ${fixtures}/ipvsadm-Ln-exact-thresholds.txt ;;`,
  `  *) echo "unexpected: ipvsadm $*" >&2; exit 2 ;;`,
  "esac",
].join("\n");

beforeAll(async () => {
  configureRemote({ backoffInitialMs: 20, backoffMaxMs: 200 });
  bin = mkdtempSync(join(tmpdir(), "lvs-fake-bin-"));
  scripts = mkdtempSync(join(tmpdir(), "lvs-fake-scripts-"));
  for (const [name, body] of [
    ["sh", standInShell],
    ["ipvsadm", fakeIpvsadm],
  ]) {
    writeFileSync(join(bin, name), `${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  director = await startFakeServer();
});

beforeEach(() => {
  director.commands.length = 0;
  for (const file of readdirSync(scripts)) rmSync(join(scripts, file));
  director.env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, SCRIPTS: scripts };
});

afterAll(async () => {
  closeAll();
  await director.close();
  rmSync(bin, { recursive: true, force: true });
  rmSync(scripts, { recursive: true, force: true });
});

const rip = (i: number) => `198.51.100.${150 + i}`;
const rip6 = (i: number) => `2001:db8:1::${(0x100 + i).toString(16)}`;

function realServers(count: number, forwarding: "dr" | "nat", family: "inet" | "inet6" = "inet") {
  const connection = {
    host: "127.0.0.1",
    port: director.port,
    user: "tester",
    password: PASSWORD,
    hostKey: director.fingerprint,
  };
  return Array.from({ length: count }, (_, i) =>
    realServerInputsSchema().parse({
      directors: [connection],
      service: { protocol: "tcp", address: family === "inet" ? "203.0.113.101" : "2001:db8::101", port: 80 },
      address: family === "inet" ? rip(i) : rip6(i),
      forwarding,
    }),
  );
}

/** Lock channels, table reads and change scripts seen by the director, and the `ipvsadm -a` lines of each script. */
function counted() {
  const kept = readdirSync(scripts).sort();
  const content = (file: string) => readFileSync(join(scripts, file), "utf8");
  const applied = kept.filter((file) => file.endsWith(".sh")).map(content);
  const readsOnStdin = kept.filter((file) => file.startsWith("read-")).map(content);
  return {
    locks: director.commands.filter((c) => c.includes("flock")).length,
    tableReads: [...director.commands, ...readsOnStdin].filter((c) => c.includes("ipvsadm -Sn")).length,
    scripts: applied.length,
    adds: applied.map((script) => script.split("\n").filter((line) => line.startsWith("ipvsadm -a")).length),
  };
}

test("20 DR real servers created together: one lock, one table read and one script on the director, not 20 of each", async () => {
  await Promise.all(realServers(20, "dr").map((inputs) => applyRealServer(inputs)));
  // DR holds nothing of the director beyond its entry: no claim is written.
  expect(counted()).toEqual({ locks: 1, tableReads: 1, scripts: 1, adds: [20] });
});

test("20 real servers removed together: one lock and one table read", async () => {
  await Promise.all(realServers(20, "dr").map((inputs) => removeRealServer(inputs)));
  // Nothing of ours is on this stand-in host (its scripts never ran), so there is nothing to change.
  expect(counted()).toEqual({ locks: 1, tableReads: 1, scripts: 0, adds: [] });
});

test("a step failing in a batch fails its own real server only: the ones before are done, the rest run in the next batch", async () => {
  director.env.FAIL_RIP = rip(6);
  const results = await Promise.allSettled(realServers(20, "dr").map((inputs) => applyRealServer(inputs)));
  const failed = results.flatMap((r, i) => (r.status === "rejected" ? [{ i, message: String(r.reason) }] : []));
  expect(failed.map((f) => f.i)).toEqual([6]);
  expect(failed[0].message).toContain(`ipvsadm -a -t 203.0.113.101:80 -r ${rip(6)}:80 -g -w 1`);
  expect(failed[0].message).toContain("Memory allocation problem");
  // Batch 1: all 20 (failing at the 7th); batch 2: the 13 after it.
  expect(counted()).toEqual({ locks: 2, tableReads: 2, scripts: 2, adds: [20, 13] });
});

test("a batch holds at most 50 real servers: 60 IPv6 ones (4 files each to read) are read and written in two", async () => {
  await Promise.all(realServers(60, "dr", "inet6").map((inputs) => applyRealServer(inputs)));
  expect(counted()).toEqual({ locks: 2, tableReads: 2, scripts: 2, adds: [50, 10] });
});
