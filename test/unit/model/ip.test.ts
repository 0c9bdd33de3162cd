import { sameAddress } from "../../../provider/model/ip";

describe("sameAddress", () => {
  it("is one address however it is written", () => {
    expect(sameAddress("2001:db8::1", "2001:0db8:0:0::1")).toBe(true);
    expect(sameAddress("2001:DB8::1", "2001:db8:0:0:0:0:0:1")).toBe(true);
    expect(sameAddress("198.51.100.11", "198.51.100.11")).toBe(true);
    // ssh to the IPv4-mapped form reaches the IPv4 address.
    expect(sameAddress("::ffff:198.51.100.11", "198.51.100.11")).toBe(true);
  });

  it("tells other addresses apart", () => {
    expect(sameAddress("2001:db8::1", "2001:db8::2")).toBe(false);
    expect(sameAddress("198.51.100.11", "198.51.100.12")).toBe(false);
    // 0.0.0.0 and :: are both "any", but not one address.
    expect(sameAddress("0.0.0.0", "::")).toBe(false);
  });

  it("is false for anything that is not an IP literal", () => {
    expect(sameAddress("lb1.example", "lb1.example")).toBe(false);
    expect(sameAddress("198.51.100.11", "lb1.example")).toBe(false);
    expect(sameAddress("fe80::1%eth0", "fe80::1")).toBe(false);
    expect(sameAddress("198.51.100.011", "198.51.100.9")).toBe(false);
  });
});
