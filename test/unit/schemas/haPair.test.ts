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

  it("unicast VRRP: both members give their addresses, one per family of the VIPs", () => {
    const unicast = (primary?: string[], backup?: string[], vips = ["198.51.100.46", "2001:db8:1::104"]) =>
      reasons({
        ...valid,
        vips,
        primary: { ...valid.primary, addresses: primary },
        backup: { ...valid.backup, addresses: backup },
      });
    expect(unicast(["198.51.100.11", "2001:db8:1::11"], ["198.51.100.12", "2001:db8:1::12"])).toEqual([]);
    expect(unicast(["198.51.100.11"], undefined, ["198.51.100.46"])).toEqual([
      "backup.addresses: is required: the other member has addresses (unicast VRRP needs both)",
    ]);
    expect(unicast(["198.51.100.11"], ["198.51.100.12", "2001:db8:1::12"])).toEqual([
      'primary.addresses: ["198.51.100.11"] must hold exactly one IPv6 address (the VIPs have that family), found 0',
    ]);
    expect(unicast(["198.51.100.11", "198.51.100.13"], ["198.51.100.12"], ["198.51.100.46"])[0]).toMatch(
      /^primary.addresses: .* must hold exactly one IPv4 address .*found 2$/,
    );
  });
});
