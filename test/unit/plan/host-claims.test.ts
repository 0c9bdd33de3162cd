import { parseInterfaceAddresses } from "../../../provider/facts/interface-addresses";
import { parseHostClaims, parseHostOriginals } from "../../../provider/facts/host-claims";
import { parseRoutes } from "../../../provider/facts/routes";
import { parseSysctlLines } from "../../../provider/facts/sysctl";
import { HostClaim } from "../../../provider/model/host-claim";
import {
  claimPath,
  formerPath,
  ORIGINALS_FILE,
  REALSERVER_RESTORE_SCRIPT,
  REALSERVER_SYSCTL_FILE,
  REALSERVER_UNIT_NAME,
  unitPath,
} from "../../../provider/model/host-paths";
import {
  claimFilePaths,
  claimsChange,
  HostClaimsFacts,
  planHostClaims,
  storedClaimIds,
} from "../../../provider/plan/host-claims";
import { realServerClaim } from "../../../provider/plan/real-server-claim";
import { Step, stepAudit, stepFile } from "../../../provider/plan/step";
import { renderClaimFile } from "../../../provider/render/claim-file";
import { realServerInputsSchema } from "../../../provider/schemas/real-server";
import { hostFixture } from "./host-fixtures";

const dr = (vip: string, address = "198.51.100.131") =>
  realServerInputsSchema().parse({
    directors: [{ host: "198.51.100.11", insecureSkipHostKeyCheck: true }],
    service: { protocol: "tcp", address: vip, port: 80 },
    address,
    forwarding: "dr",
  });
// The host of the captures: eth0 faces clients and directors.
const web = realServerClaim("rs:tcp:203.0.113.101:80/198.51.100.131:80", dr("203.0.113.101"), "eth0");
const v6 = realServerClaim("rs:tcp:[2001:db8::101]:80/[2001:db8::31]:80", dr("2001:db8::101", "2001:db8::31"), "eth0");

/** The captured host (test/fixtures/host) as planHostClaims reads it for `change`, before anything of ours is on it. */
function capturedHost(over: Partial<HostClaimsFacts> = {}): HostClaimsFacts {
  return {
    originals: parseHostOriginals(""),
    originalsFile: null,
    loadedModules: [],
    sysctls: parseSysctlLines(hostFixture("sysctl-arp.txt")),
    routes: {
      inet: parseRoutes(hostFixture("ip-route-show.json")),
      inet6: parseRoutes(hostFixture("ip-6-route-show.json")),
    },
    addresses: { lo: parseInterfaceAddresses(hostFixture("ip-addr-show-dev-lo.json")).map((a) => a.cidr) },
    links: {},
    unitEnabled: false,
    files: {},
    formerFiles: {},
    ...over,
  };
}

/** A step as the change log names it, a file write by its path only (its body is checked where it matters). */
const brief = (step: Step) => {
  const file = stepFile(step);
  return file ? `write ${file.path}` : stepAudit(step);
};

/** The host once `steps` ran on `facts` (files written, sysctls set, VIPs added), as the next read finds it. */
function after(steps: Step[], facts: HostClaimsFacts, stored: HostClaim[]): HostClaimsFacts {
  const files = { ...facts.files };
  let originalsFile = facts.originalsFile;
  for (const step of steps) {
    const file = stepFile(step);
    if (!file) continue;
    if (file.path === ORIGINALS_FILE) originalsFile = file.content;
    else files[file.path] = file.content;
  }
  const wanted = Object.fromEntries(stored.flatMap((c) => Object.entries(c.sysctls)));
  const vips = stored.flatMap((c) => c.vips);
  return {
    ...facts,
    originals: parseHostOriginals(originalsFile ?? ""),
    originalsFile,
    sysctls: { ...facts.sysctls, ...wanted },
    addresses: { lo: [...(facts.addresses.lo ?? []), ...vips.map((v) => v.cidr)] },
    unitEnabled: true,
    files,
  };
}

describe("which claims a host stores", () => {
  test("a claim's files: today's name, and the former one only where it differs (IPv6 keys)", () => {
    expect(claimFilePaths([web.id])).toEqual([claimPath(web.id), undefined]);
    const [today, former] = claimFilePaths([v6.id]);
    expect(today).toBe(claimPath(v6.id));
    expect(former).toBe(formerPath(claimPath, v6.id));
    expect(former).not.toBe(today);
  });

  test("a claim is stored under today's name, or under its former one when that file is its claim", () => {
    const other = { ...v6, id: "rs:tcp:[2001:db8:101::]:80/[2001:db8::31]:80" };
    expect(formerPath(claimPath, other.id)).toBe(formerPath(claimPath, v6.id));
    const files: Record<string, string> = { [claimPath(web.id)]: renderClaimFile(web) };
    const file = (path: string | undefined) => (path === undefined ? null : (files[path] ?? null));
    expect(storedClaimIds([web.id, v6.id, other.id], file)).toEqual(new Set([web.id]));
    // Two keys shared that former name: the content says whose it is.
    files[formerPath(claimPath, v6.id)!] = renderClaimFile(v6);
    expect(storedClaimIds([web.id, v6.id, other.id], file)).toEqual(new Set([web.id, v6.id]));
  });
});

describe("a change of the stored claims", () => {
  const stored = parseHostClaims(renderClaimFile(web) + renderClaimFile(v6));

  test("added, replaced and released claims; what the host is read for: their devices, sysctls, files", () => {
    const moved = { ...web, vips: [{ dev: "lo", cidr: "203.0.113.102/32" }] };
    const change = claimsChange(stored, [moved], [v6.id]);
    expect(change.claims).toEqual([moved]);
    expect(change.superseded).toEqual([web]);
    expect(change.released).toEqual([v6]);
    expect(change.heldVips).toEqual([...v6.vips, ...web.vips]);
    expect(change.devices).toEqual(["lo"]);
    expect(change.sysctls.sort()).toEqual(Object.keys(web.sysctls).sort());
    expect(change.files).toEqual([
      claimPath(web.id),
      claimPath(v6.id),
      REALSERVER_SYSCTL_FILE,
      expect.stringContaining("modules"),
      REALSERVER_RESTORE_SCRIPT,
      unitPath(REALSERVER_UNIT_NAME),
    ]);
    // Only the IPv6 key had another name before.
    expect(change.formerClaims).toEqual([{ id: v6.id, path: formerPath(claimPath, v6.id) }]);
  });

  test("claims that would keep one sysctl at two values are refused, naming both", () => {
    const strict = { ...web, id: "rs:strict", sysctls: { "net.ipv4.conf.all.arp_ignore": "2" } };
    expect(() => claimsChange(stored, [strict], [])).toThrow(
      "net.ipv4.conf.all.arp_ignore: claim rs:tcp:203.0.113.101:80/198.51.100.131:80 wants 1, claim rs:strict wants 2",
    );
  });
});

describe("the steps of a change, on the captured host", () => {
  const arp = [
    "sysctl -w net.ipv4.conf.all.arp_announce=2",
    "sysctl -w net.ipv4.conf.all.arp_ignore=1",
    "sysctl -w net.ipv4.conf.eth0.arp_announce=2",
    "sysctl -w net.ipv4.conf.eth0.arp_ignore=1",
  ];
  const bootFiles = [
    `write ${REALSERVER_SYSCTL_FILE}`,
    `write ${REALSERVER_RESTORE_SCRIPT}`,
    `write ${unitPath(REALSERVER_UNIT_NAME)}`,
  ];

  test("the first claim: originals recorded first, boot files, the unit enabled, ARP settings before the VIP", () => {
    const steps = planHostClaims(claimsChange([], [web], []), capturedHost());
    expect(steps.map(brief)).toEqual([
      `write ${ORIGINALS_FILE}`,
      `write ${claimPath(web.id)}`,
      ...bootFiles,
      `systemctl enable --quiet ${REALSERVER_UNIT_NAME}`,
      ...arp,
      "ip addr add 203.0.113.101/32 dev lo",
    ]);
    // The values the capture shows are what the last claim restores.
    expect(parseHostOriginals((steps[0] as { file: { content: string } }).file.content).sysctls).toEqual({
      "net.ipv4.conf.all.arp_announce": "0",
      "net.ipv4.conf.all.arp_ignore": "0",
      "net.ipv4.conf.eth0.arp_announce": "0",
      "net.ipv4.conf.eth0.arp_ignore": "0",
    });
  });

  test("applied once, the same claim finds nothing to do", () => {
    const first = planHostClaims(claimsChange([], [web], []), capturedHost());
    const converged = after(first, capturedHost(), [web]);
    expect(planHostClaims(claimsChange([web], [web], []), converged)).toEqual([]);
  });

  test("the last claim released: unit disabled first, live settings restored, then its claim and originals go", () => {
    const first = planHostClaims(claimsChange([], [web], []), capturedHost());
    const converged = after(first, capturedHost(), [web]);
    const steps = planHostClaims(claimsChange([web], [], [web.id]), converged);
    expect(steps.map(brief)).toEqual([
      `systemctl disable --quiet ${REALSERVER_UNIT_NAME}`,
      `rm -f ${REALSERVER_SYSCTL_FILE}`,
      `rm -f ${REALSERVER_RESTORE_SCRIPT}`,
      `rm -f ${unitPath(REALSERVER_UNIT_NAME)}`,
      "ip addr del 203.0.113.101/32 dev lo",
      ...arp.map((line) => line.replace(/=[12]$/, "=0")),
      `rm -f ${claimPath(web.id)}`,
      `rm -f ${ORIGINALS_FILE}`,
      expect.stringMatching(/^rmdir .* 2>\/dev\/null \|\| true$/),
    ]);
  });

  test("a claim replaced by its update: rewritten in place, the new VIP added and the old one deleted", () => {
    const first = planHostClaims(claimsChange([], [web], []), capturedHost());
    const converged = after(first, capturedHost(), [web]);
    const moved = { ...web, vips: [{ dev: "lo", cidr: "203.0.113.102/32" }] };
    const steps = planHostClaims(claimsChange([web], [moved], []), converged);
    expect(steps.map(brief)).toEqual([
      `write ${claimPath(web.id)}`,
      `write ${REALSERVER_RESTORE_SCRIPT}`,
      "ip addr add 203.0.113.102/32 dev lo",
      "ip addr del 203.0.113.101/32 dev lo",
    ]);
  });

  test("a claim file under its former name goes once today's is written; another key's file there stays", () => {
    const former = formerPath(claimPath, v6.id)!;
    const ours = planHostClaims(
      claimsChange([], [v6], []),
      capturedHost({ formerFiles: { [former]: renderClaimFile(v6) } }),
    ).map(brief);
    expect(ours).toContain(`rm -f ${former}`);
    expect(ours.indexOf(`rm -f ${former}`)).toBeGreaterThan(ours.indexOf(`write ${claimPath(v6.id)}`));
    const theirs = { ...v6, id: "rs:tcp:[2001:db8:101::]:80/[2001:db8::31]:80" };
    const kept = planHostClaims(
      claimsChange([], [v6], []),
      capturedHost({ formerFiles: { [former]: renderClaimFile(theirs) } }),
    ).map(brief);
    expect(kept).not.toContain(`rm -f ${former}`);
  });
});
