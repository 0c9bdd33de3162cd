// The VirtualService policy: its identity from the inputs, what replaces it, and what refresh makes of the live entry
// (read on a stand-in director, test/unit/operations/stand-in-director.ts, that lists a captured real table).
import { virtualServiceKind as kind } from "../../../../provider/kinds/virtual-service/policy";
import { useStandInDirector } from "../../operations/stand-in-director";

const director = useStandInDirector();
const dir1 = { host: "198.51.100.11", insecureSkipHostKeyCheck: true };
const parse = (fields: object) => kind.schema().parse({ directors: [dir1], ...fields });
const web = { protocol: "tcp", address: "2001:db8::40", port: 80 };

describe("identity", () => {
  test("two spellings of one VIP are one service; another port, protocol or VIP is another", () => {
    expect(kind.id(parse({ ...web, address: "2001:DB8:0::40" }))).toBe(kind.id(parse(web)));
    for (const other of [{ port: 443 }, { protocol: "udp" }, { address: "2001:db8::41" }]) {
      expect(kind.id(parse({ ...web, ...other }))).not.toBe(kind.id(parse(web)));
    }
    // A fwmark service with its family written out is the same entry as one with the default.
    expect(kind.id(parse({ fwmark: 5, family: "inet" }))).toBe(kind.id(parse({ fwmark: 5 })));
    expect(kind.id(parse({ fwmark: 5, family: "inet6" }))).not.toBe(kind.id(parse({ fwmark: 5 })));
  });

  test("the id is the entry's key on the director, and what updates in place leaves both alone", () => {
    const inputs = parse(web);
    expect(kind.entryKey?.(inputs)).toBe(kind.id(inputs));
    const tuned = parse({ ...web, scheduler: "rr", persistence: { timeoutSeconds: 300 }, bindVip: false });
    expect(kind.id(tuned)).toBe(kind.id(inputs));
  });

  test("every input that replaces changes the entry key (diff replaces only then): a key is never replaced by itself", () => {
    const tcp = { protocol: "tcp", address: "198.51.100.40", port: 80 };
    const changed: Record<string, object> = {
      protocol: { ...tcp, protocol: "udp" },
      address: { ...tcp, address: "198.51.100.41" },
      port: { ...tcp, port: 8080 },
      fwmark: { fwmark: 6 },
      family: { fwmark: 5, family: "inet6" },
    };
    expect(kind.replaceOn.sort()).toEqual(Object.keys(changed).sort());
    for (const path of kind.replaceOn) {
      const before = path === "fwmark" || path === "family" ? { fwmark: 5 } : tcp;
      expect(kind.entryKey?.(parse(changed[path]))).not.toBe(kind.entryKey?.(parse(before)));
    }
  });
});

test("missingFrom is computed, not an input; it is expected absent live (drift otherwise), and the service can be adopted", () => {
  expect(kind.computed).toEqual(["missingFrom"]);
  expect(parse(web)).not.toHaveProperty("missingFrom");
  // Needs no inputs: drift of missingFrom shows even while the inputs are unknown (a preview).
  const unknown = () => {
    throw new Error("unknown in a preview");
  };
  expect(kind.expectedLive?.(unknown)).toEqual({ missingFrom: undefined });
  expect(kind.adopts).toBe("virtual service");
});

describe("read", () => {
  const on = (fields: object) => kind.schema().parse({ directors: [director().connection], ...fields });

  test("a persistent service: scheduler, persistence with its netmask, one-packet off; no director misses it", async () => {
    // In the captured table: -A -t 203.0.113.107:443 -s wlc -p 60 -M 255.255.255.0
    const live = await kind.read(on({ protocol: "tcp", address: "203.0.113.107", port: 443 }), {});
    expect(live).toEqual({
      scheduler: "wlc",
      schedulerFlags: [],
      persistence: { timeoutSeconds: 60, netmask: "255.255.255.0" },
      onePacket: false,
      missingFrom: undefined,
    });
    expect(director().scripts()).toEqual([]);
  });

  test("no persistence live is undefined, so a stored one is removed; flags and one-packet as listed", async () => {
    // -A -u 203.0.113.106:5060 -s rr -o and -A -t 203.0.113.103:80 -s sh -b sh-fallback,sh-port
    expect(await kind.read(on({ protocol: "udp", address: "203.0.113.106", port: 5060 }), {})).toMatchObject({
      scheduler: "rr",
      persistence: undefined,
      onePacket: true,
    });
    const flagged = await kind.read(on({ protocol: "tcp", address: "203.0.113.103", port: 80 }), {});
    expect(flagged).toMatchObject({
      scheduler: "sh",
      schedulerFlags: ["sh-fallback", "sh-port"],
      persistence: undefined,
    });
  });

  test("a service no director lists is gone: undefined", async () => {
    expect(await kind.read(on({ protocol: "tcp", address: "203.0.113.199", port: 80 }), {})).toBeUndefined();
  });
});
