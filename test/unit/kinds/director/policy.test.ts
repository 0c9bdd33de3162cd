// The Director policy: identified by its connection, never replaced, and its removal on a stand-in director
// (test/unit/operations/stand-in-director.ts) that holds nothing of ours.
import { directorKind as kind } from "../../../../provider/kinds/director/policy";
import { actorOf, useStandInDirector } from "../../operations/stand-in-director";

const director = useStandInDirector();
const parse = (connection: object) =>
  kind.schema().parse({ connection: { insecureSkipHostKeyCheck: true, ...connection } });

test("the id is the connection (user, host, port; port 22 and user root by default)", () => {
  expect(kind.id(parse({ host: "198.51.100.11" }))).toBe(kind.id(parse({ host: "198.51.100.11", port: 22 })));
  expect(kind.id(parse({ host: "198.51.100.11" }))).toBe(kind.id(parse({ host: "198.51.100.11", user: "root" })));
  expect(kind.id(parse({ host: "198.51.100.11", port: 2222 }))).not.toBe(kind.id(parse({ host: "198.51.100.11" })));
  expect(kind.id(parse({ host: "198.51.100.11", user: "ops" }))).not.toBe(kind.id(parse({ host: "198.51.100.11" })));
});

test("never replaced: another address may be a second name of the same machine, which must keep its setup", () => {
  expect(kind.replaceOn).toEqual([]);
  // No entry of its own in the IPVS table: nothing to adopt, no entry key; its host's drift is expected absent.
  expect(kind.entryKey).toBeUndefined();
  expect(kind.adopts).toBeUndefined();
  expect(kind.expectedLive?.(() => parse({ host: "198.51.100.11" }))).toEqual({ hostDrift: undefined });
});

test("what a director reports is computed, never an input", () => {
  expect(kind.computed.sort()).toEqual(["hostDrift", "ipvsadmVersion", "kernelRelease", "schedulers", "table"]);
  for (const key of kind.computed) expect(parse({ host: "198.51.100.11" })).not.toHaveProperty(key);
});

test("remove on a host that holds nothing of ours reads it and sends no change", async () => {
  const inputs = kind.schema().parse({ connection: director().connection });
  await kind.remove(inputs, actorOf({ address: "director" }));
  expect(director().reads().length).toBeGreaterThan(0);
  expect(director().scripts()).toEqual([]);
});
