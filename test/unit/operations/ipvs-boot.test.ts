// The boot replay's reads on a stand-in director (stand-in-director.ts): they run for real on this machine, which has
// none of our files; change scripts are kept, never run.
import { IPVS_RESTORE_SCRIPT, IPVS_UNIT_NAME, unitPath } from "../../../provider/model/host-paths";
import { ipvsBootFacts, removeIpvsBootIfUnused } from "../../../provider/operations/ipvs-boot";
import { withHost } from "../../../provider/operations/session";
import { installIpvsBoot } from "../../../provider/plan/ipvs-boot";
import { useStandInDirector } from "./stand-in-director";

const director = useStandInDirector();

test("the boot replay as a director without it has it: absent and not enabled, so it is written and enabled", async () => {
  const facts = await withHost(director().connection, (session) => session.read(ipvsBootFacts()));
  expect(facts).toEqual({ bootScript: null, bootUnit: null, bootEnabled: false });
  expect(director().reads()).toHaveLength(1);
  await withHost(director().connection, (session) => session.apply(installIpvsBoot(facts)));
  const [script] = director().scripts();
  expect(script).toContain(`mv -f ${IPVS_RESTORE_SCRIPT}.lvs-pulumi-tmp ${IPVS_RESTORE_SCRIPT}`);
  expect(script).toContain(`mv -f ${unitPath(IPVS_UNIT_NAME)}.lvs-pulumi-tmp ${unitPath(IPVS_UNIT_NAME)}`);
  expect(script).toContain(`\nsystemctl enable --quiet ${IPVS_UNIT_NAME}\n`);
});

test("a director without the boot replay or any fragment of ours: one read, nothing to remove", async () => {
  await withHost(director().connection, (session) => removeIpvsBootIfUnused(session));
  const reads = director().reads();
  expect(reads).toHaveLength(1);
  // Everything the decision needs comes in that one read: the replay, the three fragment folders, the timeouts.
  for (const fact of [
    "bootScript",
    "bootUnit",
    "bootEnabled",
    "ipvsFragments",
    "snatFragments",
    "markFragments",
    "timeoutsFile",
  ]) {
    expect(reads[0]).toContain(`@@lvs-pulumi-fact@@ %s\\n' ${fact};`);
  }
  expect(director().scripts()).toEqual([]);
});
