// Upgrade from the IPv6 file names of earlier versions (colons squashed): an update of an entry whose fragment and
// claims carry their former names takes them over and leaves one file per entry (boot replays each entry once), and a
// destroy of such entries removes them and their former files. Earlier versions also wrote an empty director claim for
// a DR real server (today none is written): such a file is released by the update.
import { labExec, labTopology, liveIpvsTable } from "../../lab/lab";
import { destinationKey, serviceKey } from "../../../provider/facts/ipvsModel";
import {
  claimPath,
  destinationFragmentPath,
  formerPath,
  Naming,
  serviceFragmentPath,
} from "../../../provider/render/paths";
import { HostClaim } from "../../../provider/plan/hostClaim";
import { quote } from "../../../provider/plan/shell";
import { renderClaimFile } from "../../../provider/render/claimFile";
import { connectionTo, Declared, hostSnapshot, LabStack } from "./fixture";

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
  // What an earlier version left on each host, as [path of today, key].
  const files: Record<string, [(key: string, name?: Naming) => string, string][]> = {
    dir1: [
      [serviceFragmentPath, sKey],
      [destinationFragmentPath, dKey],
      [claimPath, `vs:${sKey}`],
    ],
    rs1: [[claimPath, `rs:${dKey}`]],
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
    for (const host of HOSTS) {
      for (const [pathOf, key] of files[host]) {
        await labExec(host, `mv ${pathOf(key)} ${formerPath(pathOf, key)}`);
      }
    }
    const claim = formerPath(claimPath, emptyDirectorClaim.id);
    await labExec("dir1", `printf '%s' ${quote(renderClaimFile(emptyDirectorClaim))} > ${quote(claim ?? "")}`);
  };
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
