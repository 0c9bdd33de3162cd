import { setTimeout as sleep } from "timers/promises";
import { fileFact } from "../facts/files";
import { Fact } from "../facts/fact";
import { destinationKey, IpvsDestination } from "../facts/ipvsModel";
import { ipvsTableFact } from "../facts/ipvsTable";
import { routesFact } from "../facts/routes";
import { snatRulesFact } from "../facts/snatRules";
import { desiredDestination, desiredSnatRule } from "../plan/desiredEntries";
import { planFiles } from "../plan/files";
import { holdsDestination, holdsSnatRule, planFormerFileRemoval } from "../plan/formerFiles";
import { HostClaim } from "../plan/hostClaim";
import { planDestination, planDestinationRemoval, planQuiesce, sameDestination } from "../plan/realServer";
import { realServerClaim } from "../plan/realServerClaim";
import { command } from "../plan/shell";
import { planSnatRule, planSnatRuleRemoval, sameSnatRule } from "../plan/snat";
import { renderDestinationRules } from "../render/ipvsRules";
import { renderSnatRule } from "../render/snatRules";
import { destinationFragmentPath, snatFragmentPath } from "../render/paths";
import { log } from "../remote";
import { ipFamily } from "../schemas/ip";
import { RealServerInputs } from "../schemas/realServer";
import { applyHostClaims } from "./host-claims";
import { refuseForeign } from "./ownership";
import { installIpvsBoot, ipvsBootFacts, removeIpvsBootIfUnused } from "./ipvs-boot";
import { droppedDirectors, sameMachine } from "./directors";
import { readFormerFile } from "./former-files";
import { Listed, listedEntry } from "./listing";
import { HostSession, withHost } from "./session";
import { sharedConnectionCounts } from "./shared-reads";

export function realServerId(inputs: RealServerInputs): string {
  const dest = desiredDestination(inputs);
  return destinationKey(dest.service, dest.address, dest.port);
}

const hostClaimId = (key: string) => `rs:${key}`;
const directorClaimId = (key: string) => `rs-director:${key}`;

/** The director-side needs of NAT: forwarding for replies; fullnat also tracks IPVS connections for its SNAT. */
function directorClaim(key: string, inputs: RealServerInputs): HostClaim {
  const claim: HostClaim = { id: directorClaimId(key), vips: [], sysctls: {}, routes: [], modules: [], links: [] };
  const v6 = ipFamily(inputs.address) === "inet6";
  if (inputs.forwarding === "nat" || inputs.forwarding === "fullnat") {
    claim.sysctls[v6 ? "net.ipv6.conf.all.forwarding" : "net.ipv4.ip_forward"] = "1";
  }
  if (inputs.forwarding === "fullnat") {
    claim.sysctls["net.ipv4.vs.conntrack"] = "1";
    claim.modules.push("nf_conntrack", "xt_ipvs");
  }
  return claim;
}

/**
 * Real server host first (VIP and ARP settings in place before any packet is sent to it), then the directors.
 * `previous` is the state before an update: what it had and the new inputs do not is released.
 */
export async function applyRealServer(inputs: RealServerInputs, previous?: RealServerInputs): Promise<void> {
  const key = realServerId(inputs);
  if (inputs.host) {
    const host = inputs.host;
    await withHost(host, async (session) => {
      const egress = await egressDevice(session, inputs.address);
      await applyHostClaims(session, [realServerClaim(hostClaimId(key), inputs, egress)], []);
    });
  }
  await Promise.all(inputs.directors.map((director) => withHost(director, (s) => convergeOnDirector(s, inputs))));
  if (previous) {
    const dropped = await droppedDirectors(previous.directors, inputs.directors);
    await Promise.all(dropped.map((director) => withHost(director, (s) => removeFromDirector(s, previous))));
    // The old SNAT rule keeps matching until it is deleted (fullnat given up, or another snatSource).
    const oldSnat = desiredSnatRule(previous);
    if (oldSnat && !sameSnatRule(oldSnat, desiredSnatRule(inputs))) {
      await Promise.all(inputs.directors.map((director) => withHost(director, (s) => removeSnat(s, previous, inputs))));
    }
    const oldHost = previous.host;
    if (oldHost && (!inputs.host || !(await sameMachine(oldHost, inputs.host)))) {
      await withHost(oldHost, (s) => applyHostClaims(s, [], [hostClaimId(key)]));
    }
  }
}

// The interface holding the RIP is where ARP requests for the VIP arrive.
async function egressDevice(session: HostSession, rip: string): Promise<string> {
  const family = ipFamily(rip) ?? "inet";
  const facts = await session.read({ holder: ripHolderFact(rip), routes: routesFact(family) });
  const dev = facts.holder ?? facts.routes.find((r) => r.dst === "default")?.dev;
  if (dev === undefined)
    throw new Error(`host ${session.name}: no interface holds the RIP ${rip} and no default route`);
  return dev;
}

function ripHolderFact(rip: string): Fact<string | undefined> {
  return {
    command: command("ip", "-j", "addr", "show", "to", rip),
    parse: (stdout) => (stdout.trim() === "" ? undefined : (JSON.parse(stdout) as { ifname?: string }[])[0]?.ifname),
  };
}

async function convergeOnDirector(session: HostSession, inputs: RealServerInputs): Promise<void> {
  const dest = desiredDestination(inputs);
  const key = destinationKey(dest.service, dest.address, dest.port);
  const snat = desiredSnatRule(inputs);
  const fragment = destinationFragmentPath(key);
  const snatFragment = snatFragmentPath(key);
  const live = await session.read({
    table: ipvsTableFact(),
    fragment: fileFact(fragment),
    snatFragment: fileFact(snatFragment),
    snatRules: snatRulesFact(ipFamily(inputs.address) ?? "inet"),
    ...ipvsBootFacts(),
  });
  const former = await readFormerFile(session, destinationFragmentPath, key, holdsDestination(key));
  const formerSnat = snat ? await readFormerFile(session, snatFragmentPath, key, holdsSnatRule(snat)) : undefined;
  const ours = live.fragment ?? former?.content ?? null;
  refuseForeign(session, `real server ${key}`, live.table.destinations[key], ours, inputs.adopt);
  await applyHostClaims(session, [directorClaim(key, inputs)], []);
  await session.apply([
    ...installIpvsBoot(live),
    ...planFiles(
      [
        { path: fragment, content: renderDestinationRules(dest) },
        ...(snat ? [{ path: snatFragment, content: renderSnatRule(snat) }] : []),
      ],
      { [fragment]: live.fragment, [snatFragment]: live.snatFragment },
    ),
    ...planFormerFileRemoval(former),
    ...planFormerFileRemoval(formerSnat),
    // SNAT before the destination: the first packet forwarded must already leave with the DIP.
    ...(snat ? planSnatRule(snat, live.snatRules) : []),
    ...planDestination(dest, live.table),
  ]);
}

/** Deletes the SNAT rule of `inputs`; its boot file too unless `next` (an update) still has a rule of the same key. */
async function removeSnat(session: HostSession, inputs: RealServerInputs, next?: RealServerInputs): Promise<void> {
  const snat = desiredSnatRule(inputs);
  if (!snat) return;
  const key = realServerId(inputs);
  const live = await session.read({
    snatRules: snatRulesFact(ipFamily(inputs.address) ?? "inet"),
    snatFragment: fileFact(snatFragmentPath(key)),
  });
  const keepFile = next !== undefined && desiredSnatRule(next) !== undefined && realServerId(next) === key;
  const former = await readFormerFile(session, snatFragmentPath, key, holdsSnatRule(snat));
  await session.apply([
    ...(keepFile
      ? []
      : planFiles([{ path: snatFragmentPath(key), content: null }], { [snatFragmentPath(key)]: live.snatFragment })),
    ...planFormerFileRemoval(former),
    ...planSnatRuleRemoval(snat, live.snatRules),
  ]);
}

async function removeFromDirector(session: HostSession, inputs: RealServerInputs): Promise<void> {
  const dest = desiredDestination(inputs);
  const key = destinationKey(dest.service, dest.address, dest.port);
  const fragment = destinationFragmentPath(key);
  const live = await session.read({ table: ipvsTableFact(), fragment: fileFact(fragment) });
  const former = await readFormerFile(session, destinationFragmentPath, key, holdsDestination(key));
  await session.apply([
    ...planFiles([{ path: fragment, content: null }], { [fragment]: live.fragment }),
    ...planFormerFileRemoval(former),
    // Only an entry we created or adopted (it has our boot fragment): never one that was there before.
    ...(live.fragment !== null || former !== undefined
      ? planDestinationRemoval(dest.service, dest.address, dest.port, live.table)
      : []),
  ]);
  await removeSnat(session, inputs);
  await applyHostClaims(session, [], [directorClaimId(key)]);
  await removeIpvsBootIfUnused(session);
}

/**
 * Directors first (no new connections), then the real server's own setup. Absent pieces are skipped. With
 * drainSeconds, the directors stop sending it new connections and the removal waits for the active ones to end.
 */
export async function removeRealServer(inputs: RealServerInputs): Promise<void> {
  if (inputs.drainSeconds > 0) await drain(inputs);
  await Promise.all(inputs.directors.map((director) => withHost(director, (s) => removeFromDirector(s, inputs))));
  if (inputs.host) {
    const key = realServerId(inputs);
    await withHost(inputs.host, (s) => applyHostClaims(s, [], [hostClaimId(key)]));
  }
}

/** Weight 0 on every director, then polls (shared, without the host locks) until no director counts an active one. */
async function drain(inputs: RealServerInputs): Promise<void> {
  const dest = desiredDestination(inputs);
  const key = realServerId(inputs);
  await Promise.all(
    inputs.directors.map((director) =>
      withHost(director, async (session) => {
        const live = await session.read({ table: ipvsTableFact(), fragment: fileFact(destinationFragmentPath(key)) });
        const former = await readFormerFile(session, destinationFragmentPath, key, holdsDestination(key));
        if (live.fragment !== null || former !== undefined) {
          await session.apply(planQuiesce(dest.service, dest.address, dest.port, live.table));
        }
      }),
    ),
  );
  log().info(
    `real server ${key}: draining (weight 0 on ${inputs.directors.length} director(s)); waiting up to ` +
      `${inputs.drainSeconds} s for its active connections to end`,
  );
  const deadline = Date.now() + inputs.drainSeconds * 1000;
  for (;;) {
    const active = await Promise.all(
      inputs.directors.map((director) =>
        sharedConnectionCounts(director).then((counts) => counts[key]?.activeConn ?? 0),
      ),
    );
    const left = active.reduce((a, b) => a + b, 0);
    if (left === 0) return;
    if (Date.now() >= deadline) {
      log().warn(
        `real server ${key}: ${left} active connection(s) left after ${inputs.drainSeconds} s of drain; removing it`,
      );
      return;
    }
    await sleep(1000);
  }
}

/** The destination as the directors list it (one that drifted first) and the directors that lack it. */
export function readRealServer(inputs: RealServerInputs): Promise<Listed<IpvsDestination>> {
  const desired = desiredDestination(inputs);
  const key = realServerId(inputs);
  return listedEntry(
    inputs.directors,
    (table) => table.destinations[key],
    (live) => sameDestination(live, desired),
  );
}
