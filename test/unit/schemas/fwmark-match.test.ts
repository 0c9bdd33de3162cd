import { validateInputs } from "../../../provider/schemas/validate-inputs";
import { fwmarkMatchSchema, portRange } from "../../../provider/schemas/fwmark-match";

function failuresOf(raw: unknown) {
  return validateInputs(fwmarkMatchSchema(), raw).failures;
}

describe("portRange", () => {
  it("is [port, port] for a port, [low, high] for a range", () => {
    expect(portRange(80)).toEqual([80, 80]);
    expect(portRange("443")).toEqual([443, 443]);
    expect(portRange("8000-8100")).toEqual([8000, 8100]);
    expect(portRange("1-65535")).toEqual([1, 65535]);
    expect(portRange("80-80")).toEqual([80, 80]);
    expect(portRange(" 8000-8100 ")).toEqual([8000, 8100]);
  });

  it.each([
    [0],
    [65536],
    [80.5],
    [-1],
    ["0"],
    ["65536"],
    ["9000-8000"],
    ["8000:8100"],
    ["-80"],
    ["80-"],
    ["80;reboot"],
    [""],
  ])("is undefined for %j", (spec) => {
    expect(portRange(spec)).toBeUndefined();
  });
});

describe("fwmarkMatchSchema", () => {
  it("takes ports and ranges together, and writes VIPs as the kernel lists them", () => {
    const match = { protocol: "udp", addresses: ["198.51.100.51", "2001:DB8:1::100"], ports: [53, "8000-8100"] };
    expect(failuresOf(match)).toEqual([]);
    expect(fwmarkMatchSchema().parse(match).addresses).toEqual(["198.51.100.51", "2001:db8:1::100"]);
  });

  it("needs at least one VIP, each one usable", () => {
    expect(failuresOf({ protocol: "tcp", addresses: [], ports: [80] })).toEqual([
      { property: "addresses", reason: "addresses: [] must list at least one VIP" },
    ]);
    expect(failuresOf({ protocol: "tcp", addresses: ["198.51.100.51", "127.0.0.1"], ports: [80] })).toEqual([
      { property: "addresses.1", reason: expect.stringContaining('"127.0.0.1" is a loopback address') },
    ]);
  });

  it("reports each bad port on its own index", () => {
    expect(failuresOf({ protocol: "tcp", addresses: ["198.51.100.51"], ports: [0, 80, "x"] })).toEqual([
      { property: "ports.0", reason: "ports.0: 0 is not a port 1..65535 or a range low-high like 8000-8100" },
      { property: "ports.2", reason: 'ports.2: "x" is not a port 1..65535 or a range low-high like 8000-8100' },
    ]);
  });
});
