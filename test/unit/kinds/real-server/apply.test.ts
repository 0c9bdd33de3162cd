// A real server's apply, read and removal on a stand-in director (test/unit/operations/stand-in-director.ts), which
// is also its host (by another name): reads run for real on this machine, change scripts are kept, never run.
// Batching on the directors is tested in on-directors.test.ts, the host's claim in on-host.test.ts.
import { applyRealServer, readRealServer, removeRealServer } from "../../../../provider/kinds/real-server/apply";
import { HOSTS_DOWN_VARIABLE } from "../../../../provider/operations/unreachable";
import { setLogger } from "../../../../provider/remote";
import { realServerInputsSchema } from "../../../../provider/schemas/real-server";
import { actorOf, useStandInDirector } from "../../operations/stand-in-director";

const director = useStandInDirector();
beforeAll(() => setLogger({ debug: () => {}, info: () => {}, warn: () => {} }));
afterAll(() => setLogger());
afterEach(() => {
  delete process.env[HOSTS_DOWN_VARIABLE];
});

const down = { host: "198.51.100.12", insecureSkipHostKeyCheck: true };
// 203.0.113.109:80 is in the captured table, 198.51.100.140 is not among its real servers.
function realServer(fields: object = {}) {
  return realServerInputsSchema().parse({
    directors: [director().connection],
    service: { protocol: "tcp", address: "203.0.113.109", port: 80 },
    address: "198.51.100.140",
    ...fields,
  });
}
const byName = () => ({ ...director().connection, host: "localhost" });
const actor = actorOf({ address: "198.51.100.140" });
const claimsReads = () =>
  director()
    .reads()
    .filter((read) => read.includes("claims.d/*.json"));

test("the real server's host is set up before any director sends it a packet", async () => {
  await applyRealServer(realServer({ host: byName() }), actor);
  const scripts = director().scripts();
  expect(scripts).toHaveLength(2);
  expect(scripts[0]).toContain("/etc/lvs-pulumi/claims.d/rs_tcp_203.0.113.109_80_198.51.100.140_80");
  expect(scripts[0]).toContain("ip addr add 203.0.113.109/32 dev lo");
  expect(scripts[0]).not.toContain("ipvsadm");
  expect(scripts[1]).toContain("ipvsadm -a -t 203.0.113.109:80 -r 198.51.100.140:80 -g -w 1");
});

test("a director listed down is skipped and returned; the others are written", async () => {
  process.env[HOSTS_DOWN_VARIABLE] = down.host;
  const skipped = await applyRealServer(realServer({ directors: [director().connection, down] }), actor);
  expect(skipped).toEqual([expect.objectContaining({ host: down.host })]);
  expect(director().counted("-a")).toMatchObject({ scripts: 1, steps: [1] });
});

test("an update dropping a director while a kept one is listed down fails with nothing written", async () => {
  process.env[HOSTS_DOWN_VARIABLE] = down.host;
  const previous = realServer({ directors: [director().connection, { ...down, host: "198.51.100.13" }] });
  await expect(
    applyRealServer(realServer({ directors: [director().connection, down], host: byName() }), actor, previous),
  ).rejects.toThrow("nothing was changed");
  expect(director().scripts()).toEqual([]);
});

test("a removal with drain waits for nothing when no director holds an entry of it", async () => {
  const infos: string[] = [];
  setLogger({ debug: () => {}, info: (line) => infos.push(line), warn: () => {} });
  try {
    // 198.51.100.140 is not in the captured table and no fragment of it is stored.
    await removeRealServer(realServer({ drainSeconds: 30 }), actor);
  } finally {
    setLogger({ debug: () => {}, info: () => {}, warn: () => {} });
  }
  expect(infos.filter((line) => line.includes("draining"))).toEqual([]);
  expect(
    director()
      .reads()
      .some((read) => read.includes("( ipvsadm -Ln --exact )")),
  ).toBe(false);
  expect(director().scripts()).toEqual([]);
});

test("an update naming the same director and host otherwise removes and releases nothing on them", async () => {
  const previous = realServer({ directors: [byName()], host: director().connection });
  await applyRealServer(realServer({ host: byName() }), actor, previous);
  // Only the claim of the new inputs and the director's batch: no removal, no release (same machine ids).
  expect(director().scripts()).toHaveLength(2);
  expect(
    director()
      .reads()
      .filter((read) => read.includes("/etc/machine-id")),
  ).toHaveLength(4);
  expect(claimsReads()).toHaveLength(1);
});

test("an update without the host it had releases that host's claim, after the directors", async () => {
  await applyRealServer(realServer(), actor, realServer({ host: byName() }));
  // The director's batch, then the release: its claims read (the claim was never stored here: nothing to change).
  expect(director().scripts()).toHaveLength(1);
  expect(director().scripts()[0]).toContain("ipvsadm -a");
  const reads = director().reads();
  expect(claimsReads()).toHaveLength(1);
  expect(reads.findIndex((read) => read.includes("claims.d/*.json"))).toBeGreaterThan(
    reads.findIndex((read) => read.includes("ipvsadm -Sn")),
  );
});

test("the undo of a failed create does not drain: nothing of it was serving", async () => {
  // A drain would set weight 0 and poll the connection counts (`ipvsadm -Ln --exact`) for up to 30 s.
  await removeRealServer(realServer({ drainSeconds: 30, host: byName() }), { ...actor, undo: true });
  const reads = director().reads();
  expect(reads.some((read) => read.includes("( ipvsadm -Ln --exact )"))).toBe(false);
  // The directors, then the host's claim released.
  expect(claimsReads()).toHaveLength(1);
  expect(director().scripts()).toEqual([]);
});

test("a read with a director listed down takes the entry from the others; the listed one is not missing", async () => {
  process.env[HOSTS_DOWN_VARIABLE] = down.host;
  const inputs = realServer({ directors: [director().connection, down], address: "198.51.100.131", weight: 2 });
  const read = await readRealServer(inputs);
  expect(read.entry).toMatchObject({ address: "198.51.100.131", forwarding: "dr", weight: 2 });
  expect(read.missingFrom).toEqual([]);
  expect(read.health).toBeUndefined();
});

test("a checked service's real server is read with the checker's state; no checker running, no health", async () => {
  const read = await readRealServer(realServer({ address: "198.51.100.131", serviceChecked: true }));
  expect(read.entry).toMatchObject({ address: "198.51.100.131", weight: 2 });
  expect(read.health).toBeUndefined();
  expect(
    director()
      .reads()
      .some((read) => read.includes("/run/lvs-pulumi-checker.pid")),
  ).toBe(true);
  expect(director().scripts()).toEqual([]);
});
