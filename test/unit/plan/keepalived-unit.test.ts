import {
  KeepalivedUnitFacts,
  planKeepalivedUnit,
  planKeepalivedUnitRemoval,
} from "../../../provider/plan/keepalived-unit";
import { stepAudit } from "../../../provider/plan/step";
import { renderKeepalivedDropIn } from "../../../provider/render/units";

const DROPIN = "/etc/systemd/system/keepalived.service.d/lvs-pulumi.conf";
const MARKER = "/etc/lvs-pulumi/keepalived-enabled-by-lvs-pulumi";
const ours: KeepalivedUnitFacts = {
  conf: "vrrp_instance X {}\n",
  dropIn: renderKeepalivedDropIn(),
  enabled: true,
  active: true,
  enabledByUs: true,
};
const plan = (live: KeepalivedUnitFacts, changed = false) => planKeepalivedUnit(live, changed).map(stepAudit);
const head = (step: string) => step.split(" ").slice(0, 2).join(" ");

describe("planKeepalivedUnit", () => {
  it("a keepalived someone else enabled is left enabled and gets no marker of ours", () => {
    const theirs = { ...ours, enabledByUs: false };
    expect(plan(theirs)).toEqual([]);
    expect(plan(theirs, true)).toEqual(["systemctl reload keepalived.service"]);
  });

  it("one we enabled and someone disabled is enabled again; the marker that is there is not rewritten", () => {
    expect(plan({ ...ours, enabled: false })).toEqual(["systemctl enable --quiet keepalived.service"]);
  });

  it("a unit neither enabled nor marked: marked as enabled by us before it is enabled", () => {
    expect(plan({ ...ours, enabled: false, enabledByUs: false }).map(head)).toEqual([
      `write ${MARKER}`,
      "systemctl enable",
    ]);
  });

  it("a new drop-in on a running keepalived: written and loaded by systemd, keepalived not restarted (VIPs stay)", () => {
    expect(plan({ ...ours, dropIn: "[Service]\n" }).map(head)).toEqual([`write ${DROPIN}`, "systemctl daemon-reload"]);
  });

  it("a stopped keepalived is started, whether its config changed or not", () => {
    expect(plan({ ...ours, active: false })).toEqual(["systemctl start keepalived.service"]);
    expect(plan({ ...ours, active: false }, true)).toEqual(["systemctl start keepalived.service"]);
  });
});

describe("planKeepalivedUnitRemoval", () => {
  const none: KeepalivedUnitFacts = { conf: null, dropIn: null, enabled: false, active: false, enabledByUs: false };

  it("nothing when nothing of ours is there", () => {
    expect(planKeepalivedUnitRemoval(none)).toEqual([]);
  });

  it("the given files first (only those that exist), their folders pruned, then config, marker and drop-in", () => {
    const files = { "/etc/keepalived/lvs-pulumi/notify.sh": "#!/bin/sh\n", "/etc/keepalived/lvs-pulumi/gone": null };
    expect(planKeepalivedUnitRemoval(ours, files, ["/etc/keepalived/lvs-pulumi"]).map(stepAudit)).toEqual([
      "systemctl stop keepalived.service",
      "systemctl disable --quiet keepalived.service",
      "rm -f /etc/keepalived/lvs-pulumi/notify.sh",
      "rm -f /etc/keepalived/keepalived.conf",
      `rm -f ${MARKER}`,
      `rm -f ${DROPIN}`,
      "rmdir /etc/keepalived/lvs-pulumi 2>/dev/null || true",
      "rmdir /etc/systemd/system/keepalived.service.d 2>/dev/null || true",
      "systemctl daemon-reload",
    ]);
  });

  it("a keepalived we did not enable is not disabled; without our drop-in systemd is not reloaded", () => {
    const theirs = { ...ours, enabledByUs: false, dropIn: null };
    expect(planKeepalivedUnitRemoval(theirs).map(stepAudit)).toEqual([
      "systemctl stop keepalived.service",
      "rm -f /etc/keepalived/keepalived.conf",
    ]);
  });
});
