import { CheckerFacts, planChecker, planCheckerRemoval } from "../../../provider/plan/checker";
import { stepAudit } from "../../../provider/plan/step";
import { renderCheckerConf } from "../../../provider/render/checked-services";
import { renderCheckerUnit } from "../../../provider/render/units";
import { KEEPALIVED_CHECKED_DIR } from "../../../provider/model/host-paths";

const CONF = "/etc/keepalived/lvs-pulumi-checker.conf";
const UNIT = "/etc/systemd/system/lvs-pulumi-checker.service";
const current: CheckerFacts = {
  conf: renderCheckerConf(KEEPALIVED_CHECKED_DIR),
  unit: renderCheckerUnit(),
  enabled: true,
  active: true,
};
const plan = (live: CheckerFacts, changed = false, restart = false) =>
  planChecker(live, { changed, restart }).map(stepAudit);
const writes = (steps: string[]) => steps.filter((step) => step.startsWith("write ")).map((s) => s.split(" ")[1]);

describe("planChecker", () => {
  it("leaves files as rendered alone; an edited config is rewritten (mode 0600) and reloaded, not restarted", () => {
    expect(writes(plan({ ...current, active: false }))).toEqual([]);
    const edited = plan({ ...current, conf: `${current.conf}# by hand\n` });
    expect(edited).toEqual([
      expect.stringMatching(/^write \/etc\/keepalived\/lvs-pulumi-checker\.conf \(mode 0600,/),
      "systemctl reload lvs-pulumi-checker.service",
    ]);
  });

  it("enables a unit someone disabled without touching the running instance", () => {
    expect(plan({ ...current, enabled: false })).toEqual(["systemctl enable --quiet lvs-pulumi-checker.service"]);
  });

  it("starts a stopped instance, also when asked to reload or restart it", () => {
    const stopped = { ...current, active: false };
    for (const [changed, restart] of [
      [false, false],
      [true, false],
      [false, true],
    ]) {
      expect(plan(stopped, changed, restart)).toEqual(["systemctl start lvs-pulumi-checker.service"]);
    }
  });

  it("restarts rather than reloads when a service is handed back and files changed at once", () => {
    expect(plan(current, true, true)).toEqual(["systemctl restart lvs-pulumi-checker.service"]);
  });

  it("a unit file removed by hand: written again, daemon reloaded, then the instance restarted", () => {
    const steps = plan({ ...current, unit: null });
    expect(writes(steps)).toEqual([UNIT]);
    expect(steps.slice(1)).toEqual(["systemctl daemon-reload", "systemctl restart lvs-pulumi-checker.service"]);
  });
});

describe("planCheckerRemoval", () => {
  it("nothing when nothing is there", () => {
    expect(planCheckerRemoval({ conf: null, unit: null, enabled: false, active: false })).toEqual([]);
  });

  it("stops and disables only what runs and is enabled; removes only the files that exist", () => {
    expect(planCheckerRemoval({ ...current, active: false, enabled: false }).map(stepAudit)).toEqual([
      `rm -f ${CONF}`,
      `rm -f ${UNIT}`,
      "systemctl daemon-reload",
    ]);
    // No unit file: systemd has nothing to forget.
    expect(planCheckerRemoval({ ...current, unit: null, active: false, enabled: false }).map(stepAudit)).toEqual([
      `rm -f ${CONF}`,
    ]);
  });
});
