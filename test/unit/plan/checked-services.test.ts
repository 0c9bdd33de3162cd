import {
  anyCheckedServiceEnabled,
  checkedFileSteps,
  checkedRemoval,
  emptiedServiceDirs,
  enableFiles,
  enabledBy,
  keepalivedRunsChecked,
  planCheckedConfigTest,
  planCheckedKeepalived,
  planCheckedKeepalivedRemoval,
  planCheckedShutdown,
  programsOf,
  refuseHandBackOnLegacyPair,
} from "../../../provider/plan/checked-services";
import { pruneBatchDirs } from "../../../provider/plan/files";
import { stepAudit, stepRun } from "../../../provider/plan/step";
import {
  LEGACY_CHECKED_ONLY_MARKER,
  renderCheckedInclude,
  renderCheckerConf,
} from "../../../provider/render/checked-services";
import { renderCheckerUnit } from "../../../provider/render/units";
import { renderKeepalivedConf } from "../../../provider/render/keepalived-conf";
import {
  checkedRealServerPaths,
  checkedServicePaths,
  KEEPALIVED_CHECKED_DIR,
} from "../../../provider/model/host-paths";
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

describe("a batch's checked items", () => {
  const rs = checkedRealServerPaths(KEY, `${KEY}/198.51.100.21:80`);
  const block = { path: rs.block, content: "real_server 198.51.100.21 80 {\n  weight 1\n}\n" };
  const written = {
    serviceKey: KEY,
    files: [block],
    programs: programsOf(["/usr/local/bin/check-web", "--port", "80"]),
    expected: [],
  };
  const live = (files: Record<string, string>) => (path: string) => files[path] ?? null;

  test("the programs that checks and notifications run are their argv[0]; none for what is not set", () => {
    expect(programsOf(["/usr/local/bin/check-web", "--port", "80"], undefined, ["/usr/bin/logger", "up"])).toEqual([
      "/usr/local/bin/check-web",
      "/usr/bin/logger",
    ]);
  });

  test("an item's files are written where they differ; a removal deletes only those that are there", () => {
    expect(checkedFileSteps(written, live({})).map(stepAudit)).toEqual([expect.stringMatching(`^write ${rs.block} `)]);
    expect(checkedFileSteps(written, live({ [rs.block]: block.content! }))).toEqual([]);
    const removal = checkedRemoval(KEY, [rs.block, rs.checkScript]);
    expect(removal).toEqual({
      serviceKey: KEY,
      files: [
        { path: rs.block, content: null },
        { path: rs.checkScript, content: null },
      ],
      programs: [],
      expected: [],
    });
    expect(checkedFileSteps(removal, live({ [rs.block]: block.content! })).map(stepAudit)).toEqual([
      `rm -f ${rs.block}`,
    ]);
  });

  test("only items whose files change are checked, with their programs tested to run; none change: no check", () => {
    const check = planCheckedConfigTest([{ checked: written }, {}], live({}), [KEY], () => ["service"]);
    expect(check).toMatchObject({ audit: expect.stringContaining("keepalived -t on the checked services") });
    const run = stepRun(check!);
    expect(run).toContain("[ -f /usr/local/bin/check-web ] && [ -x /usr/local/bin/check-web ]");
    expect(run).toContain("rs-198.51.100.21_80.conf");
    expect(
      planCheckedConfigTest([{ checked: written }], live({ [rs.block]: block.content! }), [KEY], () => []),
    ).toBeUndefined();
    expect(planCheckedConfigTest([{}, {}], live({}), [KEY], () => [])).toBeUndefined();
  });

  test("a service's folder is pruned once a removal took files out of it; writes alone prune nothing", () => {
    const other = "tcp:198.51.100.41:80";
    expect(emptiedServiceDirs([KEY, other], checkedRemoval(KEY, [rs.block]).files)).toEqual([paths.dir]);
    expect(emptiedServiceDirs([KEY, other], written.files)).toEqual([]);
  });

  test("a service is served once its enable file lands with content; the checker has work while one is enabled", () => {
    const enables = enableFiles([KEY], () => ["service"], written.files);
    expect(enabledBy(enables)(KEY)).toBe(true);
    expect(enabledBy(enableFiles([KEY], () => [], written.files))(KEY)).toBe(false);
    expect(enabledBy(enables)("tcp:198.51.100.41:80")).toBe(false);
    // `ls -1` of the checked folder: a service's folder and its enable file.
    expect(anyCheckedServiceEnabled(["tcp_198.51.100.40_80", "tcp_198.51.100.40_80.conf"])).toBe(true);
    expect(anyCheckedServiceEnabled(["tcp_198.51.100.40_80"])).toBe(false);
  });

  test("no service enabled any more: the checker stopped first, then the entries deleted, the folder pruned once empty", () => {
    const running = {
      checker: {
        conf: renderCheckerConf(KEEPALIVED_CHECKED_DIR),
        unit: renderCheckerUnit(),
        enabled: true,
        active: true,
      },
      keepalived: { conf: null, dropIn: null, enabled: false, active: false, enabledByUs: false },
      installed: true,
    };
    const removal = "ipvsadm -D -t 198.51.100.40:80";
    const steps = planCheckedShutdown(running, [removal], []);
    expect(steps.slice(0, -2)).toEqual(planCheckedKeepalivedRemoval(running));
    expect(steps.slice(-2)).toEqual([removal, pruneBatchDirs([KEEPALIVED_CHECKED_DIR])]);
    // Files of a service handed back stay until its real servers' updates: the folder stays too.
    expect(planCheckedShutdown(running, [], ["tcp_198.51.100.40_80"]).at(-1)).toBe("systemctl daemon-reload");
  });
});

describe("handing a checked service back on a pair member an older lvs-pulumi configured", () => {
  const include = renderCheckedInclude(KEEPALIVED_CHECKED_DIR);
  const conf = renderKeepalivedConf("pair-a", pair, "primary");

  test("refused while the pair's keepalived runs the checked services: update the HAPair first", () => {
    expect(() => refuseHandBackOnLegacyPair("root@198.51.100.11:22", KEY, `${conf}\n${include}`)).toThrow(
      `host root@198.51.100.11:22: virtual service ${KEY}: healthCheck cannot be removed yet: HA pair pair-a's ` +
        "keepalived still runs the checked services (configured by an older lvs-pulumi); update the HAPair first; " +
        "nothing was changed",
    );
  });

  test("a pair of today, a checked-only keepalived of an older version, or none: handed back", () => {
    expect(() => refuseHandBackOnLegacyPair("dir1", KEY, conf)).not.toThrow();
    expect(() => refuseHandBackOnLegacyPair("dir1", KEY, `${LEGACY_CHECKED_ONLY_MARKER}\n${include}`)).not.toThrow();
    expect(() => refuseHandBackOnLegacyPair("dir1", KEY, null)).not.toThrow();
  });
});
