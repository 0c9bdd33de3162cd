// applyHostClaims on a stand-in host (stand-in-director.ts): the reads run for real on this machine, which holds none
// of our claims; the change script is kept, never run.
import { HostClaim } from "../../../provider/model/host-claim";
import { claimPath, REALSERVER_UNIT_NAME } from "../../../provider/model/host-paths";
import { applyHostClaims, sharedClaimsDrift } from "../../../provider/operations/host-claims";
import { withHost } from "../../../provider/operations/session";
import { useStandInDirector } from "./stand-in-director";

const director = useStandInDirector();

const claim = (id: string, sysctls: Record<string, string>): HostClaim => ({
  id,
  vips: [{ dev: "lo", cidr: "203.0.113.120/32" }],
  sysctls,
  routes: [],
  modules: [],
  links: [],
});
const web = claim("rs:tcp:203.0.113.120:80/198.51.100.131:80", { "net.ipv4.conf.all.arp_ignore": "1" });

/** The lines of a kept change script that change something (its change-log lines and step markers left out). */
const changes = (script: string) => script.split("\n").filter((line) => /^(ip |sysctl |systemctl |mv |rm )/.test(line));

test("a first claim: its claims read, then the host in one read; one script, the VIP added after its sysctls", async () => {
  await withHost(director().connection, (session) => applyHostClaims(session, [web], []));
  const reads = director().reads();
  expect(reads).toHaveLength(2);
  expect(reads[0]).toContain("claims.d/*.json");
  // The second read asks for what the claim touches: lo's addresses and the sysctl it sets.
  expect(reads[1]).toContain("ip -j addr show dev lo");
  expect(reads[1]).toContain("sysctl -e net.ipv4.conf.all.arp_ignore");
  const scripts = director().scripts();
  expect(scripts).toHaveLength(1);
  const lines = changes(scripts[0]);
  const at = (start: string) => lines.findIndex((line) => line.startsWith(start));
  // Nothing of ours is on this host: the claim file is written, the unit enabled, then the live changes.
  expect(scripts[0]).toContain(claimPath(web.id));
  expect(at(`systemctl enable --quiet ${REALSERVER_UNIT_NAME}`)).toBeGreaterThan(at("mv -f"));
  expect(at("ip addr add 203.0.113.120/32 dev lo")).toBe(lines.length - 1);
  // This machine's arp_ignore (read live) decides whether it is set; if it is, that comes before the VIP.
  const set = at("sysctl -w net.ipv4.conf.all.arp_ignore=1");
  if (set >= 0) expect(set).toBeLessThan(at("ip addr add"));
});

test("releasing a claim the host does not store reads and changes nothing else: no script", async () => {
  await withHost(director().connection, (session) => applyHostClaims(session, [], [web.id]));
  expect(director().reads()).toHaveLength(2);
  expect(director().scripts()).toEqual([]);
});

test("claims that would want two values of one sysctl are refused after the first read, before any change", async () => {
  const strict = claim("rs:strict", { "net.ipv4.conf.all.arp_ignore": "2" });
  await expect(
    withHost(director().connection, (session) => applyHostClaims(session, [web, strict], [])),
  ).rejects.toThrow("net.ipv4.conf.all.arp_ignore: claim rs:tcp:203.0.113.120:80/198.51.100.131:80 wants 1");
  expect(director().reads()).toHaveLength(1);
  expect(director().scripts()).toEqual([]);
});

test("the drift of a host, asked by many resources at once, is read once (one claims read): none here", async () => {
  const drifts = await Promise.all(Array.from({ length: 5 }, () => sharedClaimsDrift(director().connection)));
  expect(drifts).toEqual([[], [], [], [], []]);
  const claimsReads = director()
    .reads()
    .filter((read) => read.includes("claims.d/*.json"));
  // One read started at once, one more for the callers that arrived while it ran (shared-reads.ts), never five.
  expect(claimsReads.length).toBeLessThanOrEqual(2);
  expect(director().scripts()).toEqual([]);
});
