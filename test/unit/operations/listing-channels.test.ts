// What reaches a director when many resources are refreshed at once: counted on the in-process SSH server, whose
// `ipvsadm` is a script printing captured real output (test/fixtures/ipvsadm), so the provider parses a real table.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { readRealServer } from "../../../provider/operations/real-server";
import { closeAll } from "../../../provider/remote/pool";
import { configureRemote } from "../../../provider/remote/settings";
import { realServerInputsSchema } from "../../../provider/schemas/realServer";
import { FakeServer, PASSWORD, startFakeServer } from "../remote/fake-ssh-server";

const fixtures = join(__dirname, "../../fixtures/ipvsadm");
let director: FakeServer;
let bin: string;

beforeAll(async () => {
  configureRemote({ backoffInitialMs: 20, backoffMaxMs: 200 });
  bin = mkdtempSync(join(tmpdir(), "lvs-fake-ipvsadm-"));
  const script = [
    "#!/bin/sh",
    'case "$*" in',
    `  "-Sn") cat ${fixtures}/ipvsadm-Sn.txt ;;`,
    `  "-Ln --exact --thresholds") cat ${fixtures}/ipvsadm-Ln-exact-thresholds.txt ;;`,
    `  *) echo "unexpected: ipvsadm $*" >&2; exit 2 ;;`,
    "esac",
  ].join("\n");
  writeFileSync(join(bin, "ipvsadm"), `${script}\n`);
  chmodSync(join(bin, "ipvsadm"), 0o755);
  director = await startFakeServer();
  director.env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
});

afterAll(async () => {
  closeAll();
  await director.close();
  rmSync(bin, { recursive: true, force: true });
});

test("20 real servers of one director refreshed together: two table reads and two lock channels, not 20 of each", async () => {
  const connection = {
    host: "127.0.0.1",
    port: director.port,
    user: "tester",
    password: PASSWORD,
    hostKey: director.fingerprint,
  };
  const servers = Array.from({ length: 20 }, (_, i) =>
    realServerInputsSchema().parse({
      directors: [connection],
      service: { protocol: "tcp", address: "203.0.113.101", port: 80 },
      address: i % 2 === 0 ? "198.51.100.131" : "198.51.100.132",
      forwarding: "nat",
    }),
  );
  const listed = await Promise.all(servers.map(readRealServer));
  expect(listed.map((l) => l.entry?.weight)).toEqual(Array(20).fill(1));
  expect(listed.every((l) => l.missingFrom.length === 0)).toBe(true);
  const tableReads = director.commands.filter((c) => c.includes("ipvsadm -Sn"));
  const locks = director.commands.filter((c) => c.includes("flock"));
  expect({ tableReads: tableReads.length, locks: locks.length }).toEqual({ tableReads: 2, locks: 2 });
});
