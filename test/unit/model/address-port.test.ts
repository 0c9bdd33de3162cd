import { parseAddressPort } from "../../../provider/model/address-port";
import { hostPort } from "../../../provider/model/ip";
import { ipvsadmFixture } from "../facts/fixtures";

// Every address:port the real listings print: services and real servers, IPv4 and IPv6, fwmark real servers as IP:0.
function printedAddresses(): string[] {
  const listed = ipvsadmFixture("ipvsadm-Ln-exact.txt")
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((tokens) => ["TCP", "UDP", "SCTP", "->"].includes(tokens[0]) && tokens[1] !== "RemoteAddress:Port")
    .map((tokens) => tokens[1]);
  const saved = [...ipvsadmFixture("ipvsadm-Sn.txt").matchAll(/ -[tur] (\S+)/g)].map((found) => found[1]);
  return [...listed, ...saved];
}

describe("address:port as ipvsadm prints it", () => {
  it("splits every one in the real listings, and hostPort writes each back as printed", () => {
    const printed = printedAddresses();
    expect(printed).toContain("[2001:db8:100::11]:443");
    expect(printed).toContain("198.51.100.131:0");
    for (const text of printed) {
      const { address, port } = parseAddressPort(text);
      expect(hostPort(address, port)).toBe(text);
    }
  });

  it("takes IPv6 out of its brackets and the port as a number", () => {
    expect(parseAddressPort("[2001:db8:100::101]:443")).toEqual({ address: "2001:db8:100::101", port: 443 });
    expect(parseAddressPort("203.0.113.106:5060")).toEqual({ address: "203.0.113.106", port: 5060 });
  });

  it("writes the address as the kernel lists it, so it compares with desired entries", () => {
    expect(parseAddressPort("[2001:DB8:0::0:1]:80")).toEqual({ address: "2001:db8::1", port: 80 });
  });

  it.each([
    ["a host name", "lb1.example:22"],
    ["IPv6 without brackets", "2001:db8::1:80"],
    ["no port", "198.51.100.1"],
    ["an empty port", "198.51.100.1:"],
    ["a port that is not a number", "198.51.100.1:http"],
    ["a header word", "RemoteAddress:Port"],
    ["text around it", " 198.51.100.1:80"],
  ])("refuses %s", (_what, text) => {
    expect(() => parseAddressPort(text)).toThrow(`not an address:port: ${JSON.stringify(text)}`);
  });
});
