import { z } from "zod";
import { validateInputs } from "../../../provider/schemas/validate-inputs";
import {
  endpointAddressField,
  enumField,
  interfaceNameField,
  intInRange,
  IPVSADM_MAX_THRESHOLD,
  IPVSADM_MAX_TIMEOUT_SECONDS,
  portField,
} from "../../../provider/schemas/fields";

// Each field checked on its own, as the one property "v" of an object, so reasons read as they do in a check.
function reasons(field: z.ZodType, value: unknown): string[] {
  return validateInputs(z.object({ v: field }), { v: value }).failures.map((failure) => failure.reason);
}
const value = <T>(field: z.ZodType<T>, raw: unknown): T => z.object({ v: field }).parse({ v: raw }).v;

describe("intInRange", () => {
  it("takes both bounds and integers between them", () => {
    for (const n of [1, 7, 10]) expect(reasons(intInRange(1, 10), n)).toEqual([]);
  });

  it("names the range for a value outside it, and for a fraction", () => {
    expect(reasons(intInRange(1, 10), 0)).toEqual(["v: 0 is out of range 1..10"]);
    expect(reasons(intInRange(1, 10), 11)).toEqual(["v: 11 is out of range 1..10"]);
    expect(reasons(intInRange(1, 10), 2.5)).toEqual(["v: 2.5 is not an integer in 1..10"]);
  });
});

test("ipvsadm's limits: 31 days of seconds, and INT_MAX", () => {
  expect(IPVSADM_MAX_TIMEOUT_SECONDS).toBe(31 * 24 * 60 * 60);
  expect(IPVSADM_MAX_THRESHOLD).toBe(2147483647);
});

test("portField is a TCP/UDP port, 0 excluded", () => {
  expect(reasons(portField(), 65535)).toEqual([]);
  expect(reasons(portField(), 0)).toEqual(["v: 0 is out of range 1..65535"]);
  expect(reasons(portField(), 65536)).toEqual(["v: 65536 is out of range 1..65535"]);
});

describe("endpointAddressField", () => {
  it("writes the address as the kernel lists it", () => {
    expect(value(endpointAddressField(), "2001:DB8:0:0::40")).toBe("2001:db8::40");
    expect(value(endpointAddressField(), "203.0.113.101")).toBe("203.0.113.101");
  });

  it("refuses what is not one literal address, once (no second reason about usability)", () => {
    for (const raw of ["lb1.example", "203.0.113.0/24", "1.2.3.4;reboot", "fe80::1%eth0"]) {
      expect(reasons(endpointAddressField(), raw)).toEqual([
        `v: ${JSON.stringify(raw)} is not an IPv4 or IPv6 address`,
      ]);
    }
  });

  it("refuses an address that carries no traffic, naming what it was to be used as", () => {
    expect(reasons(endpointAddressField(), "127.0.0.1")).toEqual([
      'v: "127.0.0.1" is a loopback address, not usable as a VIP or real server address',
    ]);
    expect(reasons(endpointAddressField("a director address"), "224.0.0.18")).toEqual([
      'v: "224.0.0.18" is a multicast address, not usable as a director address',
    ]);
  });
});

test("enumField lists the allowed words", () => {
  const field = enumField(["dr", "nat"], "forwarding method");
  expect(reasons(field, "nat")).toEqual([]);
  expect(reasons(field, "masq")).toEqual(['v: "masq" is not a known forwarding method; allowed: dr, nat']);
});

describe("interfaceNameField", () => {
  it.each([["eth0"], ["eth0.100"], ["bond0"], ["enp0s31f6"], ["br-lan_1"], ["a".repeat(15)]])("takes %s", (name) => {
    expect(reasons(interfaceNameField(), name)).toEqual([]);
  });

  // IFNAMSIZ is 16 with the NUL: 15 characters at most; and nothing the shell or a sysctl key would misread.
  it.each([["a".repeat(16)], [""], ["eth 0"], ["eth0;reboot"], ["eth0/1"], ["$(id)"]])("refuses %j", (name) => {
    expect(reasons(interfaceNameField(), name)).toEqual([`v: ${JSON.stringify(name)} is not an interface name`]);
  });
});
