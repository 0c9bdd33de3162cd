import { LEGACY_CHECKED_ONLY_MARKER, renderCheckedInclude } from "../../../provider/render/checked-services";
import {
  checkedServiceKeys,
  expectedKeepalived,
  haPairId,
  holdsVip,
  keepalivedConfigTest,
  keepalivedConfConflict,
  keepalivedConfigChanges,
  keepalivedFingerprint,
  pairOrder,
  pairStateOf,
  planKeepalived,
  planKeepalivedRemoval,
  renderKeepalived,
  runsCheckedServices,
  stillHeldState,
  tableDifferences,
  unsettledReason,
  vrrpInstanceIdentity,
  vrrpSettleTimes,
} from "../../../provider/plan/ha-pair";
import { parseCheckerDump } from "../../../provider/facts/checker-state";
import { parseInterfaceAddresses } from "../../../provider/facts/interface-addresses";
import { KEEPALIVED_CHECKED_DIR } from "../../../provider/model/host-paths";
import { renderKeepalivedConf } from "../../../provider/render/keepalived-conf";
import { keepalivedFixture } from "../facts/fixtures";
import { hostFixture } from "./host-fixtures";
import { IpvsDestination, IpvsService, IpvsTable } from "../../../provider/model/ipvs";
import { haPairInputsSchema } from "../../../provider/schemas/ha-pair";
import { renderKeepalivedDropIn } from "../../../provider/render/units";
import { stepAudit, stepRun } from "../../../provider/plan/step";

const CONF = "# Managed by lvs-pulumi; edits are overwritten.\n# lvs-pulumi HA pair: pair-a\n\nvrrp_instance X {}\n";
const CONFIG = { conf: CONF, scripts: [] };
const STAGED = { conf: CONF.replace("X", "STAGED"), scripts: [] };
const noScripts = { scriptNames: [], scripts: {}, checkedNames: [] };
const fresh = { conf: null, dropIn: null, enabled: false, active: false, enabledByUs: false, ...noScripts };
const running = {
  conf: CONF,
  dropIn: renderKeepalivedDropIn(),
  enabled: true,
  active: true,
  enabledByUs: true,
  ...noScripts,
};
const withConf = (conf: string) => ({ conf, scripts: [] });

describe("keepalived plan", () => {
  it("first time: checked by keepalived -t, config, boot order after the IPVS replay, enabled (ours), started", () => {
    const commands = planKeepalived("pair-a", CONFIG, STAGED, fresh);
    expect(commands.map((c) => stepAudit(c).split(" ").slice(0, 2).join(" "))).toEqual([
      "keepalived -t",
      "write /etc/keepalived/keepalived.conf",
      "write /etc/systemd/system/keepalived.service.d/lvs-pulumi.conf",
      "systemctl daemon-reload",
      "write /etc/lvs-pulumi/keepalived-enabled-by-lvs-pulumi",
      "systemctl enable",
      "systemctl start",
    ]);
    expect(stepRun(commands[2])).toContain("After=lvs-pulumi-ipvs.service");
    expect(stepAudit(commands[1])).toMatch(/^write \/etc\/keepalived\/keepalived.conf \(mode 0600,/);
  });

  it("converged: nothing; changed config on a running keepalived: rewrite and reload, never restart", () => {
    expect(planKeepalived("pair-a", CONFIG, STAGED, running)).toEqual([]);
    const changed = planKeepalived("pair-a", withConf(CONF.replace("X", "Y")), STAGED, running);
    expect(changed).toHaveLength(3);
    expect(stepAudit(changed[0])).toMatch(/^keepalived -t -f \/etc\/keepalived\/lvs-pulumi.check\/keepalived.conf/);
    expect(changed[2]).toBe("systemctl reload keepalived.service");
  });

  it("refuses a keepalived.conf it did not write, or another pair's", () => {
    expect(keepalivedConfConflict("pair-a", "vrrp_instance VI_1 {}\n")).toMatch(/not written by lvs-pulumi/);
    expect(() => planKeepalived("pair-b", CONFIG, STAGED, running)).toThrow(
      "/etc/keepalived/keepalived.conf belongs to HA pair pair-a; a director serves one pair",
    );
  });

  it("takes over the config of the same pair written under its former id (a member host written differently)", () => {
    expect(keepalivedConfConflict("pair-b", CONF, ["pair-a"])).toBeUndefined();
    expect(planKeepalived("pair-b", withConf(CONF.replace("X", "Y")), STAGED, running, ["pair-a"])).toHaveLength(3);
    expect(keepalivedConfConflict("pair-b", CONF, ["pair-c"])).toMatch(/belongs to HA pair pair-a/);
  });

  it("removal stops, disables only what it enabled, removes its files; leaves foreign config alone", () => {
    expect(planKeepalivedRemoval("pair-a", running).map(stepRun)).toEqual([
      "systemctl stop keepalived.service",
      "systemctl disable --quiet keepalived.service",
      "rm -f /etc/keepalived/keepalived.conf",
      "rm -f /etc/lvs-pulumi/keepalived-enabled-by-lvs-pulumi",
      "rm -f /etc/systemd/system/keepalived.service.d/lvs-pulumi.conf",
      "rmdir /etc/systemd/system/keepalived.service.d 2>/dev/null || true",
      "systemctl daemon-reload",
    ]);
    expect(planKeepalivedRemoval("pair-a", { ...running, enabledByUs: false }).map(stepRun)).not.toContain(
      "systemctl disable --quiet keepalived.service",
    );
    expect(planKeepalivedRemoval("pair-a", { ...running, conf: "vrrp_instance VI_1 {}\n" }).map(stepRun)).toEqual([]);
  });

  it("a checked-only keepalived.conf of an older lvs-pulumi: the pair takes it over; removal never touches the checker", () => {
    expect(keepalivedConfConflict("pair-a", `${LEGACY_CHECKED_ONLY_MARKER}\ninclude x\n`)).toBeUndefined();
    const withChecked = { ...running, checkedNames: ["tcp_198.51.100.40_80", "tcp_198.51.100.40_80.conf"] };
    const removal = planKeepalivedRemoval("pair-a", withChecked).map(stepAudit);
    expect(removal).toContain("systemctl stop keepalived.service");
    expect(removal.join("\n")).not.toContain("lvs-pulumi-checker");
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

describe("keepalived scripts and keepalived -t", () => {
  const inputs = haPairInputsSchema().parse({
    primary: member("198.51.100.11"),
    backup: member("198.51.100.12"),
    virtualRouterId: 51,
    vips: ["198.51.100.40"],
    trackScripts: [{ command: "test -e /run/ok" }],
    notify: { master: "logger 'became master'" },
    authentication: { password: "s3cr:t/1" },
  });
  const config = renderKeepalived("pair-a", inputs, "primary");
  const staged = renderKeepalived("pair-a", inputs, "primary", "/etc/keepalived/lvs-pulumi.check");
  const live = {
    ...running,
    conf: config.conf,
    scriptNames: ["notify-master.sh", "track-0.sh"],
    scripts: Object.fromEntries(config.scripts.map((s) => [s.path, s.content])),
  };

  it("scripts land root-only before the keepalived.conf naming them, after keepalived -t passed on a staged copy", () => {
    const steps = planKeepalived("pair-a", config, staged, { ...fresh });
    expect(steps.slice(0, 4).map((c) => stepAudit(c).split(" (")[0])).toEqual([
      "keepalived -t -f /etc/keepalived/lvs-pulumi.check/keepalived.conf",
      "write /etc/keepalived/lvs-pulumi/track-0.sh",
      "write /etc/keepalived/lvs-pulumi/notify-master.sh",
      "write /etc/keepalived/keepalived.conf",
    ]);
    expect(stepAudit(steps[1])).toContain("(mode 0700,");
    // The audit (change log, errors) never carries a body: no command, no password.
    expect(steps.map(stepAudit).join("\n")).not.toMatch(/s3cr|became master/);
  });

  it("the check stages the configuration and its scripts, runs keepalived -t, and removes them either way", () => {
    const run = stepRun(keepalivedConfigTest(staged));
    const lines = run.split("\n");
    expect(lines[0]).toBe("rm -rf /etc/keepalived/lvs-pulumi.check");
    expect(lines[1]).toBe("mkdir -p -m 0700 /etc/keepalived/lvs-pulumi.check");
    expect(run).toContain("mv -f /etc/keepalived/lvs-pulumi.check/keepalived.conf.lvs-pulumi-tmp");
    expect(run).toContain("mv -f /etc/keepalived/lvs-pulumi.check/track-0.sh.lvs-pulumi-tmp");
    expect(lines.at(-2)).toBe(
      "if ! keepalived -t -f /etc/keepalived/lvs-pulumi.check/keepalived.conf; then rm -rf /etc/keepalived/lvs-pulumi.check; exit 1; fi",
    );
    expect(lines.at(-1)).toBe("rm -rf /etc/keepalived/lvs-pulumi.check");
    expect(staged.conf).toContain('script "/etc/keepalived/lvs-pulumi.check/track-0.sh"');
    expect(config.conf).toContain('script "/etc/keepalived/lvs-pulumi/track-0.sh"');
  });

  it("converged: nothing; a changed command rewrites only its script (keepalived runs it afresh: no reload)", () => {
    expect(keepalivedConfigChanges(config, live)).toBe(false);
    expect(planKeepalived("pair-a", config, staged, live)).toEqual([]);
    const edited = renderKeepalived(
      "pair-a",
      { ...inputs, trackScripts: [{ ...inputs.trackScripts[0], command: "true" }] },
      "primary",
    );
    const steps = planKeepalived("pair-a", edited, staged, live);
    expect(steps.map((c) => stepAudit(c).split(" (")[0])).toEqual([
      "keepalived -t -f /etc/keepalived/lvs-pulumi.check/keepalived.conf",
      "write /etc/keepalived/lvs-pulumi/track-0.sh",
    ]);
  });

  it("a script no longer configured is removed, and keepalived reloads without it", () => {
    const without = renderKeepalived("pair-a", { ...inputs, notify: undefined }, "primary");
    const steps = planKeepalived("pair-a", without, staged, live);
    expect(steps.slice(1).map((c) => stepAudit(c).split(" (")[0])).toEqual([
      "rm -f /etc/keepalived/lvs-pulumi/notify-master.sh",
      "write /etc/keepalived/keepalived.conf",
      "systemctl reload keepalived.service",
    ]);
  });

  it("removal takes the scripts and their folder too", () => {
    expect(planKeepalivedRemoval("pair-a", live).map(stepRun)).toEqual([
      "systemctl stop keepalived.service",
      "systemctl disable --quiet keepalived.service",
      "rm -f /etc/keepalived/lvs-pulumi/notify-master.sh",
      "rm -f /etc/keepalived/lvs-pulumi/track-0.sh",
      "rm -f /etc/keepalived/keepalived.conf",
      "rm -f /etc/lvs-pulumi/keepalived-enabled-by-lvs-pulumi",
      "rm -f /etc/systemd/system/keepalived.service.d/lvs-pulumi.conf",
      "rmdir /etc/keepalived/lvs-pulumi 2>/dev/null || true",
      "rmdir /etc/systemd/system/keepalived.service.d 2>/dev/null || true",
      "systemctl daemon-reload",
    ]);
  });

  it("the fingerprint in the state is the same whatever the password: it never carries it, even hashed", () => {
    const other = renderKeepalived("pair-a", { ...inputs, authentication: { type: "PASS", password: "x" } }, "primary");
    expect(other.conf).not.toBe(config.conf);
    expect(keepalivedFingerprint(other.conf, true)).toBe(keepalivedFingerprint(config.conf, true));
  });
});

function pairInputs(overrides: Record<string, unknown> = {}) {
  return haPairInputsSchema().parse({
    primary: { connection: { host: "198.51.100.11", insecureSkipHostKeyCheck: true }, interface: "eth0" },
    backup: { connection: { host: "198.51.100.12", insecureSkipHostKeyCheck: true }, interface: "eth0" },
    virtualRouterId: 51,
    vips: ["198.51.100.46"],
    ...overrides,
  });
}

test("a VRRP instance is another one for keepalived on another router id, interface or unicast source", () => {
  const pair = pairInputs();
  const identity = (overrides: Record<string, unknown>) => vrrpInstanceIdentity(pairInputs(overrides), "primary");
  expect(identity({})).toBe(vrrpInstanceIdentity(pair, "primary"));
  expect(identity({ vips: ["198.51.100.47"], advertIntervalSeconds: 2 })).toBe(vrrpInstanceIdentity(pair, "primary"));
  expect(identity({ virtualRouterId: 52 })).not.toBe(vrrpInstanceIdentity(pair, "primary"));
  expect(identity({ primary: { ...pair.primary, interface: "eth1" } })).not.toBe(vrrpInstanceIdentity(pair, "primary"));
  const unicast = {
    primary: { ...pair.primary, addresses: ["198.51.100.11"] },
    backup: { ...pair.backup, addresses: ["198.51.100.12"] },
  };
  expect(identity(unicast)).not.toBe(vrrpInstanceIdentity(pair, "primary"));
});

test("two directors' tables differ by the keys of the entries that differ, whichever side has them", () => {
  const id = { protocol: "tcp" as const, address: "198.51.100.40", port: 80 };
  const service: IpvsService = { id, scheduler: "wrr", flags: [], onePacket: false };
  const dest = (weight: number): IpvsDestination => ({
    service: id,
    address: "198.51.100.22",
    port: 80,
    forwarding: "dr",
    weight,
    upperThreshold: 0,
    lowerThreshold: 0,
  });
  const table = (weight?: number): IpvsTable => ({
    services: { "tcp:198.51.100.40:80": service },
    destinations: weight === undefined ? {} : { "tcp:198.51.100.40:80/198.51.100.22:80": dest(weight) },
  });
  expect(tableDifferences(table(1), table(1))).toEqual([]);
  expect(tableDifferences(table(1), table(0))).toEqual(["tcp:198.51.100.40:80/198.51.100.22:80"]);
  expect(tableDifferences(table(), table(1))).toEqual(["tcp:198.51.100.40:80/198.51.100.22:80"]);
  expect(tableDifferences({ services: {}, destinations: {} }, table())).toEqual(["tcp:198.51.100.40:80"]);
});

describe("the order in which an apply configures the members", () => {
  const pair = pairInputs();
  const previous = pairInputs({ virtualRouterId: 52 });

  test("nobody holds the VIPs (a first apply), or both do: the primary first, no take-over", () => {
    const first = {
      holder: undefined,
      other: undefined,
      releasing: false,
      order: ["primary", "backup"],
      takeOver: false,
    };
    expect(pairOrder(pair, undefined, {}, [])).toEqual(first);
    expect(pairOrder(pair, previous, {}, ["198.51.100.11", "198.51.100.12"])).toEqual(first);
  });

  test("the holder first (a reload keeps them there); through a take-over when its VRRP instance changes", () => {
    expect(pairOrder(pair, undefined, {}, ["198.51.100.12"])).toEqual({
      holder: "backup",
      other: "primary",
      releasing: false,
      order: ["backup", "primary"],
      takeOver: false,
    });
    expect(pairOrder(pair, pairInputs({ advertIntervalSeconds: 2 }), {}, ["198.51.100.11"]).takeOver).toBe(false);
    expect(pairOrder(pair, previous, {}, ["198.51.100.11"]).takeOver).toBe(true);
  });

  test("a holder running its hold configuration releases it: the member that was down goes first", () => {
    expect(pairOrder(pair, previous, { primary: false, backup: true }, ["198.51.100.12"])).toEqual({
      holder: "backup",
      other: "primary",
      releasing: true,
      order: ["primary", "backup"],
      takeOver: false,
    });
  });
});

describe("the pair's state as a refresh reads it", () => {
  const pair = pairInputs();
  const id = haPairId(pair);
  const reading = (role: "primary" | "backup", holds: boolean, active = true) => ({
    conf: renderKeepalivedConf(id, pair, role),
    active,
    holds,
  });

  test("the member holding the VIPs is master; each member's fingerprint is of what its keepalived runs", () => {
    expect(pairStateOf(pair, [reading("primary", true), reading("backup", false, false)])).toEqual({
      master: "198.51.100.11",
      keepalived: {
        primary: keepalivedFingerprint(renderKeepalivedConf(id, pair, "primary"), true),
        backup: `${keepalivedFingerprint(renderKeepalivedConf(id, pair, "backup"), true)} stopped`,
      },
    });
  });

  test("both or neither holding them: no master; neither with this pair's config: no pair", () => {
    expect(pairStateOf(pair, [reading("primary", true), reading("backup", true)])?.master).toBe("");
    expect(pairStateOf(pair, [reading("primary", false), reading("backup", false)])?.master).toBe("");
    const other = { conf: renderKeepalivedConf("ha-pair:52:x+y", pair, "primary"), active: true, holds: true };
    expect(pairStateOf(pair, [other, { conf: null, active: false, holds: false }])).toBeUndefined();
  });

  test("a member that does not answer keeps its recorded fingerprint; the one that answers tells who serves", () => {
    const recorded = { master: "198.51.100.11", keepalived: { primary: "sha256:0123456789abcdef", backup: "x" } };
    expect(pairStateOf(pair, [undefined, reading("backup", true)], recorded)).toEqual({
      master: "198.51.100.12",
      keepalived: {
        primary: "sha256:0123456789abcdef",
        backup: keepalivedFingerprint(reading("backup", true).conf, true),
      },
    });
    expect(pairStateOf(pair, [undefined, reading("backup", false)])?.keepalived.primary).toBe("");
  });

  test("a VIP is held when the interface lists it, however either writes the address", () => {
    const lo = parseInterfaceAddresses(hostFixture("ip-addr-show-dev-lo.json"));
    const eth0 = parseInterfaceAddresses(hostFixture("ip-addr-show-dev-eth0.json"));
    expect(holdsVip(lo, "127.0.0.1")).toBe(true);
    expect(holdsVip(lo, "0:0::1")).toBe(true);
    expect(holdsVip(eth0, "FD00:0::2")).toBe(true);
    expect(holdsVip(eth0, "198.51.100.46")).toBe(false);
    expect(holdsVip(eth0, "192.0.2.22")).toBe(false);
  });
});

test("the pair's keepalived of an older lvs-pulumi ran checked services: those it holds move to the checker", () => {
  const include = renderCheckedInclude(KEEPALIVED_CHECKED_DIR);
  const legacy = `${renderKeepalivedConf("pair-a", pairInputs(), "primary")}\n${include}`;
  // `ls -1` of the checked folder: an enable file per service keepalived includes.
  expect(runsCheckedServices(legacy, ["tcp_198.51.100.51_80", "tcp_198.51.100.51_80.conf"])).toBe(true);
  expect(runsCheckedServices(legacy, ["tcp_198.51.100.51_80"])).toBe(false);
  expect(runsCheckedServices(renderKeepalivedConf("pair-a", pairInputs(), "primary"), ["a.conf"])).toBe(false);
  expect(runsCheckedServices(null, ["a.conf"])).toBe(false);
  // keepalived's own dump (real, v2.2.7) names the services by their real servers.
  expect(checkedServiceKeys(parseCheckerDump(keepalivedFixture("check-data-2.2.7.txt")))).toEqual([
    "tcp:198.51.100.51:80",
    "fwm6:7",
  ]);
  expect(checkedServiceKeys({})).toEqual([]);
});

test("while the holder keeps the VIPs for a member back from an outage, it is recorded with its hold config", () => {
  const pair = pairInputs();
  const state = stillHeldState(pair, "backup", "primary");
  expect(state.master).toBe("198.51.100.12");
  expect(state.keepalived.primary).toBe(expectedKeepalived(pair).primary);
  expect(state.keepalived.backup).toBe(expectedKeepalived(pair, "primary").backup);
  expect(state.keepalived.backup).not.toBe(expectedKeepalived(pair).backup);
});

describe("waiting for VRRP to settle on one holder", () => {
  test("a holder counts after its master-down interval; the deadline grows with adverts and the preempt delay", () => {
    expect(vrrpSettleTimes(pairInputs())).toEqual({ masterDownMs: 4_000, deadlineMs: 18_000 });
    expect(vrrpSettleTimes(pairInputs({ advertIntervalSeconds: 2, preemptDelaySeconds: 30 }))).toEqual({
      masterDownMs: 7_000,
      deadlineMs: 55_000,
    });
  });

  test("not settled: nobody, the wrong member or both hold the first VIP, each with what to look at", () => {
    const pair = pairInputs();
    const id = haPairId(pair);
    expect(unsettledReason(pair, [], undefined)).toBe(
      `HA pair ${id}: no director holds 198.51.100.46; see \`journalctl -u keepalived\` on both`,
    );
    expect(unsettledReason(pair, ["198.51.100.12"], "198.51.100.11")).toBe(
      `HA pair ${id}: 198.51.100.12 holds 198.51.100.46, not 198.51.100.11 ` +
        "(is keepalived running on 198.51.100.11? see `journalctl -u keepalived`)",
    );
    expect(unsettledReason(pair, ["198.51.100.11", "198.51.100.12"], undefined)).toBe(
      `HA pair ${id}: both directors hold 198.51.100.46: VRRP adverts (protocol 112) do not reach the peer on ` +
        "eth0/eth0 (filtered multicast, another virtual_router_id?)",
    );
  });
});
