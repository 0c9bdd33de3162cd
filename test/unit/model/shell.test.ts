import { command, quote } from "../../../provider/model/shell";

describe("quote", () => {
  it.each([
    ["198.51.100.1:80", "198.51.100.1:80"],
    ["net.ipv4.conf.all.arp_ignore=1", "net.ipv4.conf.all.arp_ignore=1"],
    ["[2001:db8::1]:80", "'[2001:db8::1]:80'"],
    ["1.2.3.4;reboot", "'1.2.3.4;reboot'"],
    ["it's", "'it'\\''s'"],
    ["$(id)", "'$(id)'"],
    ["", "''"],
  ])("%s -> %s", (value, quoted) => {
    expect(quote(value)).toBe(quoted);
  });

  it("round-trips through sh", () => {
    const { execFileSync } = jest.requireActual<typeof import("child_process")>("child_process");
    const nasty = "a'b\"c $(x) `y` \\ *;|&\n";
    expect(execFileSync("sh", ["-c", `printf %s ${quote(nasty)}`]).toString()).toBe(nasty);
  });

  it("joins an argv", () => {
    expect(command("ip", "addr", "add", "203.0.113.1/32", "dev", "lo")).toBe("ip addr add 203.0.113.1/32 dev lo");
  });
});
