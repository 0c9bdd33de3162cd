import { z } from "zod";
import { validateInputs } from "../../../provider/schemas/validate-inputs";
import {
  checkServiceIdentity,
  serviceFamily,
  serviceIdentityShape,
  serviceVipFields,
} from "../../../provider/schemas/service-identity";

// The identity as the VirtualService and RealServer schemas use it: its fields, then the cross-field check.
const identity = () => z.object(serviceIdentityShape()).superRefine(checkServiceIdentity);
const failuresOf = (raw: unknown) => validateInputs(identity(), raw).failures;
const match = { protocol: "tcp", addresses: ["2001:db8:1::100", "2001:db8:1::101"], ports: [443] };

describe("checkServiceIdentity", () => {
  it("takes protocol + VIP + port, or a fwmark with its family and match", () => {
    expect(failuresOf({ protocol: "tcp", address: "203.0.113.101", port: 80 })).toEqual([]);
    expect(failuresOf({ fwmark: 9, family: "inet6", match })).toEqual([]);
    expect(failuresOf({ fwmark: 9 })).toEqual([]);
  });

  it("an address service needs all three of protocol, address and port", () => {
    expect(failuresOf({}).map((failure) => failure.property)).toEqual(["protocol", "address", "port"]);
    expect(failuresOf({ protocol: "udp", address: "203.0.113.105" })).toEqual([
      { property: "port", reason: "port: is required (or set fwmark instead)" },
    ]);
  });

  it("a fwmark service has no protocol, address or port of its own", () => {
    expect(failuresOf({ fwmark: 5, protocol: "tcp" })).toEqual([
      { property: "protocol", reason: 'protocol: "tcp" is not allowed with fwmark (the mark selects packets)' },
    ]);
  });

  it("a fwmark service's match VIPs are of its family, IPv4 unless it says inet6", () => {
    const v4 = { ...match, addresses: ["198.51.100.51"] };
    expect(failuresOf({ fwmark: 5, match: v4 })).toEqual([]);
    expect(
      failuresOf({ fwmark: 5, family: "inet6", match: { ...match, addresses: ["2001:db8:1::100", "198.51.100.51"] } }),
    ).toEqual([
      {
        property: "match.addresses.1",
        reason: 'match.addresses.1: "198.51.100.51" is not IPv6 like the service (family inet6)',
      },
    ]);
  });
});

test("serviceFamily: the VIP's family, else the fwmark's, IPv4 by default", () => {
  expect(serviceFamily({ address: "2001:db8::40" })).toBe("inet6");
  expect(serviceFamily({ address: "203.0.113.101" })).toBe("inet");
  expect(serviceFamily({ fwmark: 5, family: "inet6" })).toBe("inet6");
  expect(serviceFamily({ fwmark: 5 })).toBe("inet");
});

test("serviceVipFields: every VIP with the path it is reported on", () => {
  expect(serviceVipFields({ address: "203.0.113.101" })).toEqual([{ path: ["address"], address: "203.0.113.101" }]);
  expect(
    serviceVipFields({ match: { protocol: "tcp", addresses: ["2001:db8:1::100", "2001:db8:1::101"], ports: [443] } }),
  ).toEqual([
    { path: ["match", "addresses", 0], address: "2001:db8:1::100" },
    { path: ["match", "addresses", 1], address: "2001:db8:1::101" },
  ]);
  expect(serviceVipFields({})).toEqual([]);
});
