import {
  enableFiles,
  keepalivedRunsChecked,
  planCheckedKeepalived,
  planCheckedKeepalivedRemoval,
} from "../../../provider/plan/checked-services";
import { stepAudit } from "../../../provider/plan/step";
import {
  LEGACY_CHECKED_ONLY_MARKER,
  renderCheckedInclude,
  renderCheckerConf,
} from "../../../provider/render/checked-services";
import { renderCheckerUnit } from "../../../provider/render/units";
import { renderKeepalivedConf } from "../../../provider/render/keepalived-conf";
import { checkedServicePaths, KEEPALIVED_CHECKED_DIR } from "../../../provider/model/host-paths";
import { haPairInputsSchema } from "../../../provider/schemas/ha-pair";

const KEY = "tcp:198.51.100.40:80";
const pair = haPairInputsSchema().parse({
  primary: { connection: { host: "198.51.100.11", insecureSkipHostKeyCheck: true }, interface: "eth0" },
  backup: { connection: { host: "198.51.100.12", insecureSkipHostKeyCheck: true }, interface: "eth0" },
  virtualRouterId: 51,
  vips: ["198.51.100.46"],
});
const paths = checkedServicePaths(KEY);

describe("enable files: keepalived includes a checked service only while it has real servers", () => {
  it("a service with no real server is not included; its first real server includes it", () => {
    const service = [{ path: paths.service, content: "virtual_server ..." }];
    expect(enableFiles([KEY], () => [], service)[0].content).toBeNull();
    const first = [{ path: `${paths.dir}/rs-198.51.100.21_80.conf`, content: "real_server ..." }];
    expect(enableFiles([KEY], () => ["service", "check"], first)[0]).toEqual({
      path: paths.enable,
      content: expect.stringContaining("include tcp_198.51.100.40_80/service\n"),
    });
  });

  it("the last real server removed, or the service removed, takes it out", () => {
    const listing = () => ["service", "check", "rs-198.51.100.21_80.conf"];
    const lastGone = [{ path: `${paths.dir}/rs-198.51.100.21_80.conf`, content: null }];
    expect(enableFiles([KEY], listing, lastGone)[0].content).toBeNull();
    expect(enableFiles([KEY], listing, [{ path: paths.service, content: null }])[0].content).toBeNull();
    expect(enableFiles([KEY], listing, [])[0].content).not.toBeNull();
  });

  it("rebased under another root (the staged copy), paths follow", () => {
    const staged = enableFiles([KEY], () => ["service", "rs-a.conf"], [], "/stage");
    expect(staged[0].path).toBe(`/stage/tcp_198.51.100.40_80.conf`);
    expect(paths.enable.startsWith(`${KEEPALIVED_CHECKED_DIR}/`)).toBe(true);
  });
});

describe("keepalived.conf as an older lvs-pulumi wrote it: the distribution's keepalived ran the checked services", () => {
  const include = renderCheckedInclude(KEEPALIVED_CHECKED_DIR);
  it("an HA pair's today does not include them; one that does, or a checked-only one, is legacy", () => {
    const conf = renderKeepalivedConf("pair-a", pair, "primary");
    expect(conf).not.toContain(KEEPALIVED_CHECKED_DIR);
    expect(keepalivedRunsChecked(conf)).toBe(false);
    expect(keepalivedRunsChecked(`${conf}\n${include}`)).toBe(true);
    expect(keepalivedRunsChecked(`${LEGACY_CHECKED_ONLY_MARKER}\n${include}`)).toBe(true);
    expect(keepalivedRunsChecked(null)).toBe(false);
  });
});

describe("the checker instance on a director", () => {
  const noChecker = { conf: null, unit: null, enabled: false, active: false };
  const noKeepalived = { conf: null, dropIn: null, enabled: false, active: false, enabledByUs: false };
  const fresh = { checker: noChecker, keepalived: noKeepalived, installed: true };
  const written = planCheckedKeepalived(fresh, true, false).map(stepAudit);

  it("first service: its config and unit written, enabled, started", () => {
    expect(written).toEqual([
      expect.stringMatching(/^write \/etc\/keepalived\/lvs-pulumi-checker\.conf \(mode 0600,/),
      expect.stringMatching(/^write \/etc\/systemd\/system\/lvs-pulumi-checker\.service /),
      "systemctl daemon-reload",
      "systemctl enable --quiet lvs-pulumi-checker.service",
      "systemctl start lvs-pulumi-checker.service",
    ]);
  });

  it("running: reloaded for changed files, restarted for a service handed back or a new unit, else left alone", () => {
    const conf = renderCheckerConf(KEEPALIVED_CHECKED_DIR);
    const running = { ...fresh, checker: { conf, unit: renderCheckerUnit(), enabled: true, active: true } };
    expect(planCheckedKeepalived(running, true, false).map(stepAudit)).toEqual([
      "systemctl reload lvs-pulumi-checker.service",
    ]);
    expect(planCheckedKeepalived(running, false, true).map(stepAudit)).toEqual([
      "systemctl restart lvs-pulumi-checker.service",
    ]);
    expect(planCheckedKeepalived(running, false, false)).toEqual([]);
    const olderUnit = { ...running, checker: { ...running.checker, unit: "[Service]\n" } };
    expect(planCheckedKeepalived(olderUnit, false, false).map(stepAudit).slice(1)).toEqual([
      "systemctl daemon-reload",
      "systemctl restart lvs-pulumi-checker.service",
    ]);
  });

  it("the last service gone: stopped (its entries stay for the caller to delete), disabled, files removed", () => {
    const conf = renderCheckerConf(KEEPALIVED_CHECKED_DIR);
    const running = { ...fresh, checker: { conf, unit: renderCheckerUnit(), enabled: true, active: true } };
    expect(planCheckedKeepalivedRemoval(running).map(stepAudit)).toEqual([
      "systemctl stop lvs-pulumi-checker.service",
      "systemctl disable --quiet lvs-pulumi-checker.service",
      "rm -f /etc/keepalived/lvs-pulumi-checker.conf",
      "rm -f /etc/systemd/system/lvs-pulumi-checker.service",
      "systemctl daemon-reload",
    ]);
  });

  it("a checked-only keepalived of an older lvs-pulumi is stopped and removed once the checker runs", () => {
    const legacy = {
      ...fresh,
      keepalived: { ...noKeepalived, conf: `${LEGACY_CHECKED_ONLY_MARKER}\n`, enabled: true, active: true },
    };
    const steps = planCheckedKeepalived(legacy, true, false).map(stepAudit);
    expect(steps.indexOf("systemctl start lvs-pulumi-checker.service")).toBeLessThan(
      steps.indexOf("systemctl stop keepalived.service"),
    );
    expect(steps).toContain("rm -f /etc/keepalived/keepalived.conf");
    // A pair's keepalived is not the checker's to stop.
    const pairConf = renderKeepalivedConf("pair-a", pair, "primary");
    const member = { ...legacy, keepalived: { ...legacy.keepalived, conf: pairConf } };
    expect(planCheckedKeepalived(member, true, false).map(stepAudit)).not.toContain(
      "systemctl stop keepalived.service",
    );
    expect(planCheckedKeepalivedRemoval(member).map(stepAudit)).not.toContain("systemctl stop keepalived.service");
  });
});
