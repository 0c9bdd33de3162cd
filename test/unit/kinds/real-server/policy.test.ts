// The RealServer policy: its identity from the inputs, what replaces it, and what refresh makes of the live entry
// (read on a stand-in director, test/unit/operations/stand-in-director.ts, that lists a captured real table).
import { realServerKind as kind } from "../../../../provider/kinds/real-server/policy";
import { useStandInDirector } from "../../operations/stand-in-director";

const director = useStandInDirector();
const dir1 = { host: "198.51.100.11", insecureSkipHostKeyCheck: true };
const service = { protocol: "tcp", address: "2001:db8::40", port: 80 };
// NAT: the only forwarding whose RIP port may differ from the service port.
const parse = (fields: object) =>
  kind.schema().parse({ directors: [dir1], service, address: "2001:db8:1::21", forwarding: "nat", ...fields });

test("two spellings of one destination are one real server; another port, RIP or service is another", () => {
  const spelled = parse({ address: "2001:DB8:1:0::21", port: 80, service: { ...service, address: "2001:DB8::40" } });
  expect(kind.id(spelled)).toBe(kind.id(parse({})));
  for (const other of [{ port: 8080 }, { address: "2001:db8:1::22" }, { service: { ...service, port: 443 } }]) {
    expect(kind.id(parse(other))).not.toBe(kind.id(parse({})));
  }
});

test("the id is the entry key; weight, thresholds and forwarding change neither (they update in place)", () => {
  const inputs = parse({});
  expect(kind.entryKey?.(inputs)).toBe(kind.id(inputs));
  const tuned = parse({ weight: 5, upperThreshold: 100, lowerThreshold: 10, forwarding: "tun" });
  expect(kind.entryKey?.(tuned)).toBe(kind.entryKey?.(inputs));
});

test("each input that replaces changes the entry key: the service, the RIP, the port", () => {
  const changed: Record<string, object> = {
    service: { service: { ...service, protocol: "udp" } },
    address: { address: "2001:db8:1::22" },
    port: { port: 8080 },
  };
  expect(kind.replaceOn.sort()).toEqual(Object.keys(changed).sort());
  for (const path of kind.replaceOn) expect(kind.entryKey?.(parse(changed[path]))).not.toBe(kind.entryKey?.(parse({})));
});

test("missingFrom, health and hostDrift are computed; missingFrom and hostDrift expected absent; adoptable", () => {
  expect(kind.computed.sort()).toEqual(["health", "hostDrift", "missingFrom"]);
  for (const key of kind.computed) expect(parse({})).not.toHaveProperty(key);
  const unknown = () => {
    throw new Error("unknown in a preview");
  };
  expect(kind.expectedLive?.(unknown)).toEqual({ missingFrom: undefined, hostDrift: undefined });
  expect(kind.adopts).toBe("real server");
});

describe("read", () => {
  const on = (fields: object) =>
    kind.schema().parse({ directors: [director().connection], address: "198.51.100.131", ...fields });

  test("a DR entry as listed: weight and thresholds from the table, no health without a checked service", async () => {
    // In the captured table: -a -t 203.0.113.109:80 -r 198.51.100.131:80 -g -w 2
    const live = await kind.read(on({ service: { protocol: "tcp", address: "203.0.113.109", port: 80 } }), {});
    expect(live).toEqual({
      weight: 2,
      upperThreshold: 0,
      lowerThreshold: 0,
      forwarding: "dr",
      missingFrom: undefined,
      health: undefined,
    });
    expect(director().scripts()).toEqual([]);
  });

  test("the kernel lists fullnat as nat: a fullnat real server reads back fullnat, any other as listed (drift)", async () => {
    // -a -t 203.0.113.108:80 -r 198.51.100.131:80 -m -w 3
    const masq = { service: { protocol: "tcp", address: "203.0.113.108", port: 80 } };
    const fullnat = on({ ...masq, forwarding: "fullnat", snatSource: "198.51.100.1" });
    expect(await kind.read(fullnat, {})).toMatchObject({ forwarding: "fullnat", weight: 3 });
    expect(await kind.read(on({ ...masq, forwarding: "nat" }), {})).toMatchObject({ forwarding: "nat" });
    expect(await kind.read(on({ ...masq, forwarding: "dr" }), {})).toMatchObject({ forwarding: "nat" });
  });

  test("a real server that no director lists is gone: undefined", async () => {
    const gone = on({ service: { protocol: "tcp", address: "203.0.113.109", port: 80 }, address: "198.51.100.199" });
    expect(await kind.read(gone, {})).toBeUndefined();
  });
});
