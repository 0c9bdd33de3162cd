import { checkInputs } from "../../../provider/schemas/checkInputs";
import { haPairInputsSchema } from "../../../provider/schemas/haPair";

const valid = {
  primary: { connection: { host: "198.51.100.11", insecureSkipHostKeyCheck: true }, interface: "eth0" },
  backup: { connection: { host: "198.51.100.12", insecureSkipHostKeyCheck: true }, interface: "eth0" },
  virtualRouterId: 51,
  vips: ["198.51.100.46"],
};

function reasons(raw: unknown): string[] {
  return checkInputs(haPairInputsSchema(), raw).failures.map((f) => f.reason);
}

describe("HA pair inputs", () => {
  it("fills the defaults an operator expects", () => {
    const inputs = haPairInputsSchema().parse(valid);
    expect(inputs.primary.priority).toBe(150);
    expect(inputs.backup.priority).toBe(100);
    expect(inputs.vips).toEqual([{ address: "198.51.100.46" }]);
    expect(inputs.connectionSync).toEqual({ enabled: true });
    expect(inputs).toMatchObject({ advertIntervalSeconds: 1, preempt: true, installKeepalived: false });
  });

  it("names the field and the value of bad input", () => {
    expect(reasons({ ...valid, virtualRouterId: 256 })).toEqual(["virtualRouterId: 256 is out of range 1..255"]);
    expect(reasons({ ...valid, vips: ["198.51.100.300"] })).toEqual([
      'vips.0.address: "198.51.100.300" is not an IPv4 or IPv6 address',
    ]);
    expect(reasons({ ...valid, vips: ["127.0.0.1"] })).toEqual([
      'vips.0.address: "127.0.0.1" is a loopback address, not usable as a VIP or real server address',
    ]);
    expect(reasons({ ...valid, primary: { ...valid.primary, interface: "eth0; reboot" } })).toEqual([
      'primary.interface: "eth0; reboot" is not an interface name',
    ]);
  });

  it("refuses a pair that cannot work", () => {
    expect(reasons({ ...valid, backup: { ...valid.primary } })[0]).toMatch(
      /^backup.connection.host: "198.51.100.11" is the primary's host/,
    );
    expect(reasons({ ...valid, backup: { ...valid.backup, priority: 150 } })).toEqual([
      "backup.priority: 150 must be below the primary's priority (150)",
    ]);
    expect(reasons({ ...valid, vips: ["198.51.100.46", "198.51.100.046"] })).toHaveLength(1);
    expect(reasons({ ...valid, vips: [] })).toEqual(["vips: [] must list at least one address"]);
  });
});
