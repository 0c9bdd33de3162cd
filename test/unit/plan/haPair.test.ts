import {
  expectedKeepalived,
  haPairId,
  keepalivedConfConflict,
  keepalivedFingerprint,
  planKeepalived,
  planKeepalivedRemoval,
} from "../../../provider/plan/haPair";
import { haPairInputsSchema } from "../../../provider/schemas/haPair";
import { renderKeepalivedDropIn } from "../../../provider/render/units";
import { stepAudit, stepRun } from "../../../provider/plan/script";

const CONF = "# Managed by lvs-pulumi; edits are overwritten.\n# lvs-pulumi HA pair: pair-a\n\nvrrp_instance X {}\n";
const fresh = { conf: null, dropIn: null, enabled: false, active: false, enabledByUs: false };
const running = { conf: CONF, dropIn: renderKeepalivedDropIn(), enabled: true, active: true, enabledByUs: true };

describe("keepalived plan", () => {
  it("first time: config, boot order after the IPVS replay, enabled (remembered as ours), started", () => {
    const commands = planKeepalived("pair-a", CONF, fresh);
    expect(commands.map((c) => stepAudit(c).split(" ").slice(0, 2).join(" "))).toEqual([
      "write /etc/keepalived/keepalived.conf",
      "write /etc/systemd/system/keepalived.service.d/lvs-pulumi.conf",
      "systemctl daemon-reload",
      "write /etc/lvs-pulumi/keepalived-enabled-by-lvs-pulumi",
      "systemctl enable",
      "systemctl start",
    ]);
    expect(stepRun(commands[1])).toContain("After=lvs-pulumi-ipvs.service");
  });

  it("converged: nothing; changed config on a running keepalived: rewrite and reload, never restart", () => {
    expect(planKeepalived("pair-a", CONF, running)).toEqual([]);
    const changed = planKeepalived("pair-a", CONF.replace("X", "Y"), running);
    expect(changed).toHaveLength(2);
    expect(changed[1]).toBe("systemctl reload keepalived.service");
  });

  it("refuses a keepalived.conf it did not write, or another pair's", () => {
    expect(keepalivedConfConflict("pair-a", "vrrp_instance VI_1 {}\n")).toMatch(/not written by lvs-pulumi/);
    expect(() => planKeepalived("pair-b", CONF, running)).toThrow(
      "/etc/keepalived/keepalived.conf belongs to HA pair pair-a; a director serves one pair",
    );
  });

  it("takes over the config of the same pair written under its former id (a member host written differently)", () => {
    expect(keepalivedConfConflict("pair-b", CONF, ["pair-a"])).toBeUndefined();
    expect(planKeepalived("pair-b", CONF.replace("X", "Y"), running, ["pair-a"])).toHaveLength(2);
    expect(keepalivedConfConflict("pair-b", CONF, ["pair-c"])).toMatch(/belongs to HA pair pair-a/);
  });

  it("removal stops, disables only what it enabled, removes its files; leaves foreign config alone", () => {
    expect(planKeepalivedRemoval("pair-a", running)).toEqual([
      "systemctl stop keepalived.service",
      "systemctl disable --quiet keepalived.service",
      "rm -f /etc/keepalived/keepalived.conf",
      "rm -f /etc/lvs-pulumi/keepalived-enabled-by-lvs-pulumi",
      "rm -f /etc/systemd/system/keepalived.service.d/lvs-pulumi.conf",
      "rmdir /etc/systemd/system/keepalived.service.d 2>/dev/null || true",
      "systemctl daemon-reload",
    ]);
    expect(planKeepalivedRemoval("pair-a", { ...running, enabledByUs: false })).not.toContain(
      "systemctl disable --quiet keepalived.service",
    );
    expect(planKeepalivedRemoval("pair-a", { ...running, conf: "vrrp_instance VI_1 {}\n" })).toEqual([]);
  });
});

const member = (host: string, extra: Record<string, unknown> = {}) => ({
  connection: { host, insecureSkipHostKeyCheck: true, ...extra },
  interface: "eth0",
});

test("a pair's id (written into keepalived.conf) survives a new user or jump host, not a new member", () => {
  const pair = (primary: object, backup: object, virtualRouterId = 51) =>
    haPairId(haPairInputsSchema().parse({ primary, backup, virtualRouterId, vips: ["198.51.100.40"] }));
  const base = pair(member("198.51.100.11"), member("198.51.100.12"));
  expect(base).toBe("ha-pair:51:198.51.100.11:22+198.51.100.12:22");
  const jump = { proxy: { host: "203.0.113.5", port: 2222, insecureSkipHostKeyCheck: true } };
  expect(pair(member("198.51.100.11", { user: "deploy", ...jump }), member("198.51.100.12", jump))).toBe(base);
  expect(pair(member("198.51.100.11"), member("198.51.100.13"))).not.toBe(base);
  expect(pair(member("198.51.100.11"), member("198.51.100.12"), 52)).not.toBe(base);
});

test("fingerprints: what keepalived runs with, stopped or absent; the expected ones are of the rendered configs", () => {
  expect(keepalivedFingerprint(null, false)).toBe("absent");
  expect(keepalivedFingerprint(CONF, true)).toMatch(/^sha256:[0-9a-f]{16}$/);
  expect(keepalivedFingerprint(CONF, false)).toBe(`${keepalivedFingerprint(CONF, true)} stopped`);
  expect(keepalivedFingerprint(CONF + "#", true)).not.toBe(keepalivedFingerprint(CONF, true));
  const inputs = haPairInputsSchema().parse({
    primary: member("198.51.100.11"),
    backup: member("198.51.100.12"),
    virtualRouterId: 51,
    vips: ["198.51.100.40"],
  });
  const expected = expectedKeepalived(inputs);
  expect(expected.primary).not.toBe(expected.backup);
  expect(expectedKeepalived({ ...inputs, advertIntervalSeconds: 2 }).primary).not.toBe(expected.primary);
});
