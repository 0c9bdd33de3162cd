import { directoryListingFact } from "../../../provider/facts/files";
import { IPVS_RESTORE_SCRIPT, IPVS_UNIT_NAME, OWNED_DIRS, unitPath } from "../../../provider/model/host-paths";
import { BootFacts, installIpvsBoot, planIpvsBootRemoval } from "../../../provider/plan/ipvs-boot";
import { pruneBatchDirs } from "../../../provider/plan/files";
import { Step, stepAudit, stepFile, stepRun } from "../../../provider/plan/step";
import { renderIpvsRestoreScript } from "../../../provider/render/ipvs-restore-script";
import { renderIpvsUnit } from "../../../provider/render/units";

const UNIT = unitPath(IPVS_UNIT_NAME);
const brief = (step: Step) => {
  const file = stepFile(step);
  return file ? `write ${file.path}` : stepAudit(step);
};
const fresh: BootFacts = { bootScript: null, bootUnit: null, bootEnabled: false };
const installed: BootFacts = { bootScript: renderIpvsRestoreScript(), bootUnit: renderIpvsUnit(), bootEnabled: true };
// `ls -1` of a folder, as directoryListingFact reads it.
const listing = (stdout: string) => directoryListingFact("/etc/lvs-pulumi/ipvs.d").parse(stdout);
const nothingLeft = { ipvsFragments: [], snatFragments: [], markFragments: [], timeoutsFile: null };

test("on a fresh director the boot replay is written (its script executable) and enabled; installed, nothing", () => {
  const steps = installIpvsBoot(fresh);
  expect(steps.map(brief)).toEqual([
    `write ${IPVS_RESTORE_SCRIPT}`,
    `write ${UNIT}`,
    `systemctl enable --quiet ${IPVS_UNIT_NAME}`,
  ]);
  expect(steps[0]).toMatchObject({ file: { mode: "0755" } });
  expect(installIpvsBoot(installed)).toEqual([]);
  // A unit edited by hand is written back; a unit disabled by hand is enabled again.
  expect(installIpvsBoot({ ...installed, bootUnit: "[Unit]\n", bootEnabled: false }).map(brief)).toEqual([
    `write ${UNIT}`,
    `systemctl enable --quiet ${IPVS_UNIT_NAME}`,
  ]);
});

test("the boot replay stays while any fragment of ours or the timeouts file is left", () => {
  const left = listing("10-svc-tcp_203.0.113.101_80.rules\n");
  expect(planIpvsBootRemoval({ ...installed, ...nothingLeft, ipvsFragments: left })).toEqual([]);
  expect(planIpvsBootRemoval({ ...installed, ...nothingLeft, snatFragments: left })).toEqual([]);
  expect(planIpvsBootRemoval({ ...installed, ...nothingLeft, markFragments: left })).toEqual([]);
  expect(planIpvsBootRemoval({ ...installed, ...nothingLeft, timeoutsFile: "tcp 900\n" })).toEqual([]);
});

test("nothing left: disabled, its files removed, our emptied folders pruned; gone already, nothing", () => {
  expect(planIpvsBootRemoval({ ...installed, ...nothingLeft, ipvsFragments: listing("") }).map(stepRun)).toEqual([
    `systemctl disable --quiet ${IPVS_UNIT_NAME}`,
    `rm -f ${IPVS_RESTORE_SCRIPT}`,
    `rm -f ${UNIT}`,
    pruneBatchDirs(OWNED_DIRS),
  ]);
  expect(planIpvsBootRemoval({ ...fresh, ...nothingLeft })).toEqual([]);
});
