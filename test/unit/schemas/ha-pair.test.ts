import { validateInputs } from "../../../provider/schemas/validate-inputs";
import { haPairInputsSchema } from "../../../provider/schemas/ha-pair";

const valid = {
  primary: { connection: { host: "198.51.100.11", insecureSkipHostKeyCheck: true }, interface: "eth0" },
  backup: { connection: { host: "198.51.100.12", insecureSkipHostKeyCheck: true }, interface: "eth0" },
  virtualRouterId: 51,
  vips: ["198.51.100.46"],
};

function reasons(raw: unknown): string[] {
  return validateInputs(haPairInputsSchema(), raw).failures.map((f) => f.reason);
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
    // The same sshd written another way: a host name in other case, an IPv6 address in another form.
    const member = (role: "primary" | "backup", host: string) => ({
      ...valid[role],
      connection: { ...valid[role].connection, host },
    });
    expect(
      reasons({ ...valid, primary: member("primary", "Dir1.Example"), backup: member("backup", "dir1.example") })[0],
    ).toMatch(/^backup.connection.host: "dir1.example" is the primary's host/);
    expect(
      reasons({
        ...valid,
        primary: member("primary", "2001:DB8:1::11"),
        backup: member("backup", "2001:db8:1:0::11"),
      })[0],
    ).toMatch(/is the primary's host/);
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

  it("a VIP that is a member's own address (its connection.host or unicast address) is refused", () => {
    expect(reasons({ ...valid, vips: ["198.51.100.46", "198.51.100.12"] })).toEqual([
      'vips.1.address: "198.51.100.12" is the backup\'s own address (backup.connection.host): keepalived removes the VIPs from a member that turns backup, and the member would lose that address with them; use another VIP',
    ]);
    // The floating form, and the same address written another way.
    const v6 = (host: string) => ({ ...valid.primary, connection: { ...valid.primary.connection, host } });
    expect(
      reasons({ ...valid, primary: v6("2001:0db8:1:0::11"), vips: [{ address: "2001:db8:1::11", interface: "eth1" }] }),
    ).toEqual([
      expect.stringMatching(
        /^vips\.0\.address: "2001:db8:1::11" is the primary's own address \(primary\.connection\.host\)/,
      ),
    ]);
    const unicast = reasons({
      ...valid,
      primary: {
        ...valid.primary,
        connection: { ...valid.primary.connection, host: "lb1.example" },
        addresses: ["198.51.100.21"],
      },
      backup: { ...valid.backup, addresses: ["198.51.100.22"] },
      vips: ["198.51.100.21"],
    });
    expect(unicast).toEqual([
      expect.stringMatching(
        /^vips\.0\.address: "198\.51\.100\.21" is the primary's own address \(primary\.addresses\[0\]\)/,
      ),
    ]);
    // A host name is never taken for an address.
    expect(reasons({ ...valid, primary: v6("lb1.example") })).toEqual([]);
  });

  it("track, notify, gratuitous ARP and preempt delay: defaults, and bad values named with the field", () => {
    const inputs = haPairInputsSchema().parse({ ...valid, trackScripts: [{ command: "true" }] });
    expect(inputs.trackScripts).toEqual([{ command: "true", intervalSeconds: 2, fall: 2, rise: 2 }]);
    expect(reasons({ ...valid, trackScripts: [{ command: "" }] })).toEqual([
      'trackScripts.0.command: "" must not be empty',
    ]);
    expect(reasons({ ...valid, trackScripts: [{ command: "true", weight: 300 }] })).toEqual([
      "trackScripts.0.weight: 300 is out of range -253..253",
    ]);
    expect(reasons({ ...valid, notify: { master: "a\0b" } })).toEqual([
      'notify.master: "a\\u0000b" must not contain a NUL character',
    ]);
    expect(reasons({ ...valid, gratuitousArp: { masterRepeat: 0 } })).toEqual([
      "gratuitousArp.masterRepeat: 0 is out of range 1..255",
    ]);
    expect(reasons({ ...valid, primary: { ...valid.primary, trackInterfaces: ["eth1; reboot"] } })).toEqual([
      'primary.trackInterfaces.0: "eth1; reboot" is not an interface name',
    ]);
  });

  it("keepalived's own rules, named before anything is touched", () => {
    expect(reasons({ ...valid, preempt: false, preemptDelaySeconds: 30 })).toEqual([
      "preemptDelaySeconds: 30 needs preempt: true (keepalived: preempt_delay is incompatible with nopreempt)",
    ]);
    expect(reasons({ ...valid, preemptDelaySeconds: 1001 })).toEqual([
      "preemptDelaySeconds: 1001 is out of range 1..1000",
    ]);
    expect(reasons({ ...valid, primary: { ...valid.primary, trackInterfaces: ["eth1", "eth0"] } })).toEqual([
      'primary.trackInterfaces.1: "eth0" is the member\'s VRRP interface, which keepalived tracks already (it refuses to track it twice)',
    ]);
    const dual = { ...valid, vips: ["198.51.100.46", "2001:db8:1::104"] };
    expect(reasons({ ...dual, trackScripts: [{ command: "true", weight: -50 }] })).toEqual([
      "trackScripts.0.weight: -50 is ignored by keepalived in a sync group (this pair has IPv4 and IPv6 VIPs): leave it out (FAULT on failure)",
    ]);
  });

  it("PASS authentication: VRRPv2 only, at most 8 plain characters, the password never shown", () => {
    const parsed = haPairInputsSchema().parse({ ...valid, authentication: { password: "s3cr:t/1" } });
    expect(parsed.authentication).toEqual({ type: "PASS", password: "s3cr:t/1" });
    expect(reasons({ ...valid, authentication: { password: "toolong12" } })).toEqual([
      "authentication.password: must be 1 to 8 characters of A-Z a-z 0-9 _ + = @ % : , . / - (keepalived's auth_pass)",
    ]);
    expect(reasons({ ...valid, authentication: { password: "a#b" } })[0]).not.toContain("a#b");
    expect(reasons({ ...valid, authentication: { type: "AH", password: "x" } })).toEqual([
      'authentication.type: "AH" is not supported; allowed: "PASS"',
    ]);
    const v6 = reasons({ ...valid, vips: ["2001:db8:1::104"], authentication: { password: "s3cr3t" } });
    expect(v6).toEqual([
      "authentication: (object) is VRRPv2 only: this pair has IPv6 VIPs (a VRRPv3 instance) and VRRPv3 has no authentication; drop it or the IPv6 VIPs",
    ]);
    expect(v6.join()).not.toContain("s3cr3t");
  });
});
