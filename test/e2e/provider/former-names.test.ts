// Upgrade from the IPv6 file names of earlier versions (colons squashed): an update of an entry whose fragment and
// claims carry their former names takes them over and leaves one file per entry (boot replays each entry once), and a
// destroy of such entries removes them and their former files. Those versions held a claim per entry (no owner tag)
// and kept no owners file; they also wrote an empty director claim for a DR real server (today none is written):
// such files are taken over or released by the update.
import { labExec, labTopology, liveIpvsTable } from "../../lab/lab";
import { destinationKey, serviceKey } from "../../../provider/model/ipvs";
import {
  claimPath,
  destinationFragmentPath,
  formerPath,
  ownersPath,
  serviceFragmentPath,
} from "../../../provider/model/host-paths";
import { ownedClaimId } from "../../../provider/plan/owners";
import { HostClaim } from "../../../provider/model/host-claim";
import { quote } from "../../../provider/model/shell";
import { renderClaimFile } from "../../../provider/render/claim-file";
import { connectionTo, Declared, hostSnapshot, LabStack, urnOf } from "./fixture";

const HOSTS = ["dir1", "rs1"];

describe("files written under the former IPv6 names", () => {
  let stack: LabStack;
  const before: Record<string, string> = {};
  const vip6 = labTopology().freeVips.ipv6[3];
  const rip = "2001:db8:1::21";
  const dir1 = connectionTo("dir1");
  const web6 = { protocol: "tcp", address: vip6, port: 80 };
  const sKey = serviceKey({ protocol: "tcp", address: vip6, port: 80 });
  const dKey = destinationKey({ protocol: "tcp", address: vip6, port: 80 }, rip, 80);
  const serviceUrn = urnOf("web6", "virtualService");
  const realServerUrn = urnOf("web6-rs1", "realServer");
  // What an earlier version left on each host: fragments under their former names, and one claim per entry, with no
  // owner tag in its id, under its former name.
  const fragments: [string, string | undefined][] = [
    [serviceFragmentPath(sKey), formerPath(serviceFragmentPath, sKey)],
    [destinationFragmentPath(dKey), formerPath(destinationFragmentPath, dKey)],
  ];
  const claims: Record<string, [string, string][]> = {
    dir1: [[`vs:${sKey}`, serviceUrn]],
    rs1: [[`rs:${dKey}`, realServerUrn]],
  };
  const ownersFiles: Record<string, string[]> = {
    dir1: [ownersPath(`vs:${sKey}`), ownersPath(`rs:${dKey}`)],
    rs1: [ownersPath(`rs:${dKey}`)],
  };
  const declare = (scheduler: string, weight: number): Declared[] => [
    { name: "dir1", kind: "director", inputs: { connection: dir1 } },
    { name: "web6", kind: "virtualService", inputs: { directors: [dir1], ...web6, scheduler } },
    {
      name: "web6-rs1",
      kind: "realServer",
      inputs: { directors: [dir1], service: web6, address: rip, weight, host: connectionTo("rs1") },
    },
  ];
  const emptyDirectorClaim: HostClaim = {
    id: `rs-director:${dKey}`,
    vips: [],
    sysctls: {},
    routes: [],
    modules: [],
    links: [],
  };
  /** Moves today's files to their former names, and writes the empty director claim, as an earlier version had. */
  const downgradeNames = async () => {
    for (const [today, former] of fragments) await labExec("dir1", `mv ${quote(today)} ${quote(former ?? "")}`);
    for (const host of HOSTS) {
      for (const [id, urn] of claims[host]) {
        const today = claimPath(ownedClaimId(id, urn));
        const claim = { ...(JSON.parse(await labExec(host, `cat ${quote(today)}`)) as HostClaim), id };
        await writeClaim(host, formerPath(claimPath, id), claim);
        await labExec(host, `rm ${quote(today)}`);
      }
      await labExec(host, `rm -f ${ownersFiles[host].map(quote).join(" ")}`);
    }
    await writeClaim("dir1", formerPath(claimPath, emptyDirectorClaim.id), emptyDirectorClaim);
  };
  const writeClaim = (host: string, path: string | undefined, claim: HostClaim) =>
    labExec(host, `printf '%s' ${quote(renderClaimFile(claim))} > ${quote(path ?? "")}`);
  const owned = (host: string) =>
    labExec(host, "ls /etc/lvs-pulumi/ipvs.d /etc/lvs-pulumi/claims.d 2>/dev/null || true");

  beforeAll(async () => {
    for (const h of HOSTS) before[h] = await hostSnapshot(h);
    stack = await LabStack.start();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("an update takes over the former files and leaves one per entry; a destroy removes them", async () => {
    await stack.deploy(declare("rr", 1));
    const deployed = { dir1: await owned("dir1"), rs1: await owned("rs1") };
    await downgradeNames();
    // Before: the service counted as foreign (no fragment under today's name) and the update failed.
    await stack.deploy(declare("wlc", 2));
    expect({ dir1: await owned("dir1"), rs1: await owned("rs1") }).toEqual(deployed);
    const table = await liveIpvsTable("dir1");
    expect(table).toContain(`-A -t [${vip6}]:80 -s wlc`);
    expect(table).toContain(`-a -t [${vip6}]:80 -r [${rip}]:80 -g -w 2`);

    await downgradeNames();
    await stack.destroy();
    for (const h of HOSTS) expect(await hostSnapshot(h)).toBe(before[h]);
  });
});
