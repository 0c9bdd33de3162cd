// The HAPair policy: updated in place whatever changes, and what refresh expects of keepalived, also with a member
// listed as down; read and remove on a stand-in director (test/unit/operations/stand-in-director.ts) without keepalived.
import { haPairKind as kind } from "../../../../provider/kinds/ha-pair/policy";
import { KNOWN_DOWN } from "../../../../provider/plan/ha-pair";
import { HOSTS_DOWN_VARIABLE } from "../../../../provider/operations/unreachable";
import { setLogger } from "../../../../provider/remote";
import { actorOf, useStandInDirector } from "../../operations/stand-in-director";

const director = useStandInDirector();
const member = (host: string) => ({ connection: { host, insecureSkipHostKeyCheck: true }, interface: "eth0" });
const fields = {
  primary: member("198.51.100.11"),
  backup: member("198.51.100.12"),
  virtualRouterId: 51,
  vips: ["203.0.113.40"],
};
const pair = (changes: object = {}) => kind.schema().parse({ ...fields, ...changes });

afterEach(() => {
  delete process.env[HOSTS_DOWN_VARIABLE];
});

test("never replaced: another router id or member gives another id, yet the pair is updated in place", () => {
  // A replacement would stop keepalived on both members before the new pair started (README: never replaced).
  expect(kind.replaceOn).toEqual([]);
  expect(kind.entryKey).toBeUndefined();
  expect(kind.id(pair({ virtualRouterId: 52 }))).not.toBe(kind.id(pair()));
  expect(kind.id(pair({ backup: member("198.51.100.13") }))).not.toBe(kind.id(pair()));
  expect(kind.id(pair({ vips: ["203.0.113.41"] }))).toBe(kind.id(pair()));
  expect(kind.adopts).toBeUndefined();
});

test("the master and keepalived's state are computed, never inputs", () => {
  expect(kind.computed.sort()).toEqual(["keepalived", "master"]);
  for (const key of kind.computed) expect(pair()).not.toHaveProperty(key);
});

describe("expected keepalived", () => {
  test("one configuration per member, which the inputs decide", () => {
    const expected = kind.expectedLive?.(() => pair());
    expect(Object.keys(expected ?? {})).toEqual(["keepalived"]);
    const { keepalived } = expected as { keepalived: Record<string, string> };
    expect(Object.keys(keepalived).sort()).toEqual(["backup", "primary"]);
    expect(keepalived.primary).not.toBe(keepalived.backup);
    const other = kind.expectedLive?.(() => pair({ advertIntervalSeconds: 2 })) as typeof expected;
    expect(other).not.toEqual(expected);
  });

  test("with a member listed down the other holds the VIPs for both: both expectations change", () => {
    const declared = (kind.expectedLive?.(() => pair()) as { keepalived: Record<string, string> }).keepalived;
    process.env[HOSTS_DOWN_VARIABLE] = "198.51.100.12";
    const held = (kind.expectedLive?.(() => pair()) as { keepalived: Record<string, string> }).keepalived;
    expect(held.primary).not.toBe(declared.primary);
    expect(held.backup).toBe(KNOWN_DOWN);
    // The first up without the variable declares both again.
    delete process.env[HOSTS_DOWN_VARIABLE];
    expect((kind.expectedLive?.(() => pair()) as { keepalived: unknown }).keepalived).toEqual(declared);
  });

  test("inputs that cannot be parsed yet (a preview) make it throw, which diff reads as no drift", () => {
    const unknown = () => {
      throw new Error("unknown in a preview");
    };
    expect(() => kind.expectedLive?.(unknown)).toThrow("unknown in a preview");
  });
});

describe("on members without keepalived", () => {
  beforeAll(() => setLogger({ debug: () => {}, info: () => {}, warn: () => {} }));
  afterAll(() => setLogger());
  const onStandIn = () =>
    kind.schema().parse({
      ...fields,
      // One stand-in host reached by two names: two members as far as the inputs go.
      primary: { connection: director().connection, interface: "lo" },
      backup: { connection: { ...director().connection, host: "localhost" }, interface: "lo" },
    });

  test("read finds no keepalived.conf of this pair: the pair is gone", async () => {
    expect(await kind.read(onStandIn(), {})).toBeUndefined();
    expect(director().scripts()).toEqual([]);
  });

  test("remove finds nothing of this pair on either member and sends no change", async () => {
    await kind.remove(onStandIn(), actorOf({ address: "pair" }));
    expect(director().reads().length).toBeGreaterThanOrEqual(2);
    expect(director().scripts()).toEqual([]);
  });
});
