// An HA pair's apply, read and removal on a stand-in director (test/unit/operations/stand-in-director.ts) reached by
// two names: one machine, without keepalived. What is refused is refused before any change; the paths that configure
// keepalived and wait for VRRP to elect a master need two real directors and are covered by the lab (test/e2e/provider).
import { applyHaPair, readHaPair, removeHaPair } from "../../../../provider/kinds/ha-pair/apply";
import { HOSTS_DOWN_VARIABLE } from "../../../../provider/operations/unreachable";
import { setLogger } from "../../../../provider/remote";
import { haPairInputsSchema } from "../../../../provider/schemas/ha-pair";
import { actorOf, useStandInDirector } from "../../operations/stand-in-director";

const director = useStandInDirector();
const actor = actorOf({ address: "pair" });
const warnings: string[] = [];
beforeAll(() => setLogger({ debug: () => {}, info: () => {}, warn: (message) => void warnings.push(message) }));
afterAll(() => setLogger());
beforeEach(() => {
  warnings.length = 0;
});
afterEach(() => {
  delete process.env[HOSTS_DOWN_VARIABLE];
});

/** Both members on the stand-in (by address and by name), or the backup a lab address nobody dials. */
function pair(backupHost = "localhost", changes: object = {}) {
  const connection = director().connection;
  return haPairInputsSchema().parse({
    primary: { connection, interface: "lo" },
    backup: { connection: { ...connection, host: backupHost }, interface: "lo" },
    virtualRouterId: 51,
    vips: ["203.0.113.40"],
    ...changes,
  });
}

describe("refused before any change", () => {
  test("both members listed down: no SSH at all", async () => {
    process.env[HOSTS_DOWN_VARIABLE] = "127.0.0.1,localhost";
    await expect(applyHaPair(pair(), actor)).rejects.toThrow(`listed in ${HOSTS_DOWN_VARIABLE}`);
    expect(director().counted("-A")).toMatchObject({ channels: 0, scripts: 0 });
    expect(director().reads()).toEqual([]);
  });

  test("two names of one machine: only the machine ids are read, nothing changes", async () => {
    await expect(applyHaPair(pair(), actor)).rejects.toThrow(
      "the primary 127.0.0.1 and the backup localhost are one machine (same machine id and SSH host keys): a pair " +
        "needs two directors; nothing was changed",
    );
    const reads = director().reads();
    expect(reads).toHaveLength(2);
    for (const read of reads) expect(read).toContain("/etc/machine-id");
    expect(director().scripts()).toEqual([]);
  });

  test("the live member of a pair with one listed down lacks keepalived: refused after reading it, the other untouched", async () => {
    // 198.51.100.12 is never dialed: withHost refuses a listed host at once (a dial would time out the test).
    process.env[HOSTS_DOWN_VARIABLE] = "198.51.100.12";
    await expect(applyHaPair(pair("198.51.100.12"), actor)).rejects.toThrow(
      "keepalived is not installed; install it or set installKeepalived: true",
    );
    const reads = director().reads();
    expect(reads).toHaveLength(1);
    expect(reads[0]).toContain("command -v keepalived");
    expect(director().scripts()).toEqual([]);
  });
});

test("a read with a member listed down reads the other and warns once, naming what is kept", async () => {
  process.env[HOSTS_DOWN_VARIABLE] = "198.51.100.12";
  // No keepalived.conf of this pair on the member read: the pair is gone there.
  expect(await readHaPair(pair("198.51.100.12"))).toBeUndefined();
  expect(director().reads()).toHaveLength(1);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain("198.51.100.12");
  expect(warnings[0]).toContain("the master read from the other member");
});

test("a read asks each member for its keepalived.conf, whether keepalived runs and the first VIP's interface", async () => {
  expect(await readHaPair(pair(), {})).toBeUndefined();
  const reads = director().reads();
  expect(reads).toHaveLength(2);
  for (const read of reads) {
    expect(read).toContain("/etc/keepalived/keepalived.conf");
    expect(read).toContain("systemctl is-active --quiet keepalived.service");
    expect(read).toContain("ip -j addr show dev lo");
  }
});

test("a removal needs both members: the primary listed down fails it before the backup is touched", async () => {
  process.env[HOSTS_DOWN_VARIABLE] = "127.0.0.1";
  await expect(removeHaPair(pair(), actor)).rejects.toThrow(`listed in ${HOSTS_DOWN_VARIABLE}`);
  expect(director().reads()).toEqual([]);
  expect(director().counted("-A")).toMatchObject({ channels: 0, scripts: 0 });
});

test("removing from members without this pair's keepalived reads each member and changes nothing", async () => {
  await removeHaPair(pair(), actor);
  const reads = director().reads();
  expect(reads).toHaveLength(2);
  for (const read of reads) expect(read).toContain("/etc/lvs-pulumi/owners.d/ha-pair.json");
  expect(director().scripts()).toEqual([]);
});
