// A director's apply, read and removal on a stand-in director (test/unit/operations/stand-in-director.ts): its reads
// run for real on this machine, which holds none of our files; change scripts are kept, never run. Its ipvsadm
// answers only the table reads, so `ipvsadm --version` fails there the way an ipvsadm that cannot reach the kernel
// does: what follows that read (packages, claim, timeouts, boot replay) is covered by the lab (test/e2e/provider).
import { applyDirector, readLiveDirector, removeDirector } from "../../../../provider/kinds/director/apply";
import { directorInputsSchema } from "../../../../provider/schemas/director";
import { actorOf, useStandInDirector } from "../../operations/stand-in-director";

const director = useStandInDirector();
const inputs = () => directorInputsSchema().parse({ connection: director().connection, installPackages: true });
const actor = actorOf({ address: "director" });

test("an apply whose first read fails stops there with ipvsadm's message: nothing installed, claimed or written", async () => {
  await expect(applyDirector(inputs(), actor)).rejects.toThrow("reading ipvsadm failed");
  const reads = director().reads();
  expect(reads).toHaveLength(1);
  // One read holds every fact the package decision needs.
  for (const fact of ["kernelRelease", "ipvsadm", "arping", "iptables", "schedulers"]) {
    expect(reads[0]).toContain(`@@lvs-pulumi-fact@@ %s\\n' ${fact};`);
  }
  expect(director().scripts()).toEqual([]);
  expect(director().counted("-A")).toMatchObject({ channels: 1, locks: 1 });
});

test("a refresh reads the facts in one read (not the table: resources/live-table.ts), and fails as it does", async () => {
  await expect(readLiveDirector(inputs())).rejects.toThrow("reading ipvsadm failed");
  const reads = director().reads();
  expect(reads).toHaveLength(1);
  expect(reads[0]).not.toContain("ipvsadm -Sn");
  expect(reads[0]).toContain("uname -r");
  expect(director().scripts()).toEqual([]);
});

test("removing a director that holds no claim of ours: claims and timeouts read together, nothing changed", async () => {
  await removeDirector(inputs(), actor);
  const reads = director().reads();
  expect(reads[0]).toContain("claims.d/*.json");
  expect(reads[0]).toContain("/etc/lvs-pulumi/ipvs-timeouts");
  // Then the boot replay's check and the claims' release, each finding nothing to do.
  expect(reads.some((read) => read.includes("bootScript"))).toBe(true);
  expect(director().scripts()).toEqual([]);
  expect(director().counted("-A")).toMatchObject({ channels: 1, locks: 1 });
});
