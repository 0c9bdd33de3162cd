// The real server's own setup as a claim on its host, on a stand-in host (test/unit/operations/stand-in-director.ts):
// the reads run for real on this machine, which holds no claim of ours; the change scripts are kept, never run.
import { execFileSync } from "child_process";
import { realServerId } from "../../../../provider/kinds/real-server/apply";
import {
  claimOnRealServerHost,
  hostClaimId,
  realServerHostDrift,
  releaseOnRealServerHost,
} from "../../../../provider/kinds/real-server/on-host";
import { realServerInputsSchema } from "../../../../provider/schemas/real-server";
import { actorOf, useStandInDirector } from "../../operations/stand-in-director";

const director = useStandInDirector();

function realServer(address: string, vip = "203.0.113.40") {
  const inputs = realServerInputsSchema().parse({
    directors: [{ host: "198.51.100.11", insecureSkipHostKeyCheck: true }],
    service: { protocol: "tcp", address: vip, port: 80 },
    address,
    host: director().connection,
  });
  return { inputs, key: realServerId(inputs), actor: actorOf({ address: vip }) };
}

const claim = ({ inputs, key, actor }: ReturnType<typeof realServer>) =>
  claimOnRealServerHost(inputs.host!, inputs, key, actor);

/** The claims written by a kept script, as JSON. */
interface Route {
  dst: string;
  dev: string;
}

const claimsWritten = (script: string) =>
  [...script.matchAll(/printf '%s' '(\{"id":"rs:[^\n]*)\n/g)].map((m) => JSON.parse(m[1]) as Record<string, never>);

test("a claim: the RIP's holder and routes read, then one script whose claim, owned by the resource, ends with the VIP on lo", async () => {
  const rs = realServer("198.51.100.131");
  await claim(rs);
  const reads = director().reads();
  expect(reads[0]).toContain("ip -j addr show to 198.51.100.131");
  expect(reads[0]).toContain("ip -j route show");
  const scripts = director().scripts();
  expect(scripts).toHaveLength(1);
  const [written] = claimsWritten(scripts[0]);
  // Each owner holds its own claim: the id is the destination's, with the owner after it.
  expect(written.id).toMatch(new RegExp(`^${hostClaimId(rs.key).replace(/[.[\]]/g, "\\$&")}@[0-9a-f]+$`));
  expect(written.vips).toEqual([{ dev: "lo", cidr: "203.0.113.40/32" }]);
  const lines = scripts[0].trimEnd().split("\n");
  expect(lines[lines.length - 2]).toBe("ip addr add 203.0.113.40/32 dev lo");
});

test("ARP settings go on the default route's interface when no interface of the host holds the RIP", async () => {
  await claim(realServer("198.51.100.131"));
  const routes = JSON.parse(execFileSync("ip", ["-j", "route", "show"], { encoding: "utf8" })) as Route[];
  const dev = routes.find((route) => route.dst === "default")?.dev;
  expect(dev).toBeDefined();
  const [written] = claimsWritten(director().scripts()[0]);
  expect(Object.keys(written.sysctls)).toContain(`net.ipv4.conf.${dev}.arp_ignore`);
});

test("the real servers of many services on one host arrive together: one claims read, one script, one claim each", async () => {
  const servers = Array.from({ length: 8 }, (_, i) => realServer("198.51.100.131", `203.0.113.${40 + i}`));
  await Promise.all(servers.map(claim));
  expect(
    director()
      .reads()
      .filter((read) => read.includes("claims.d/*.json")),
  ).toHaveLength(1);
  const scripts = director().scripts();
  expect(scripts).toHaveLength(1);
  expect(claimsWritten(scripts[0]).map((c) => c.vips)).toEqual(
    servers.map((_, i) => [{ dev: "lo", cidr: `203.0.113.${40 + i}/32` }]),
  );
  expect(director().counted("-a")).toMatchObject({ channels: 1, locks: 1 });
});

test("releasing a claim the host does not hold changes nothing", async () => {
  const rs = realServer("198.51.100.131");
  await releaseOnRealServerHost(rs.inputs.host!, rs.key, rs.actor);
  // The claims and originals, then the host state a change would start from: no claim stored, nothing to change.
  expect(director().reads()).toHaveLength(2);
  expect(director().scripts()).toEqual([]);
});

test("a claim and a release of one destination at once are never merged: the second runs in the next batch", async () => {
  const rs = realServer("198.51.100.131");
  await Promise.all([claim(rs), releaseOnRealServerHost(rs.inputs.host!, rs.key, rs.actor)]);
  // Two batches, each reading the claims; the claim's script only (the stand-in never ran it, so the release finds
  // nothing to release).
  expect(
    director()
      .reads()
      .filter((read) => read.includes("claims.d/*.json")),
  ).toHaveLength(2);
  expect(director().scripts()).toHaveLength(1);
});

test("drift of a host that holds no claim of ours: none, from reads only", async () => {
  expect(await realServerHostDrift(realServer("198.51.100.131").inputs.host!)).toEqual([]);
  expect(
    director()
      .reads()
      .some((read) => read.includes("claims.d/*.json")),
  ).toBe(true);
  expect(director().scripts()).toEqual([]);
});
