import { fileFact } from "../facts/files";
import { hostClaimsFact } from "../facts/hostClaims";
import { IpvsService, isFwmarkService, serviceKey } from "../facts/ipvsModel";
import { ipvsTableFact } from "../facts/ipvsTable";
import { markRulesFact } from "../facts/markRules";
import { routesFact, routeToFact } from "../facts/routes";
import { announceSysctls } from "../plan/announce";
import { desiredMarkRules, desiredService, serviceVips } from "../plan/desiredEntries";
import { planFiles } from "../plan/files";
import { holdsService, planFormerFileRemoval } from "../plan/formerFiles";
import { ClaimedVip, HostClaim } from "../plan/hostClaim";
import { planMarkRules } from "../plan/markRules";
import { Step } from "../plan/script";
import { planService, planServiceRemoval, sameService } from "../plan/virtualService";
import { renderServiceRules } from "../render/ipvsRules";
import { renderMarkRules } from "../render/markRules";
import { markFragmentPath, serviceFragmentPath } from "../render/paths";
import { canonicalIp, hostPrefixLength, ipFamily } from "../schemas/ip";
import { serviceFamily } from "../schemas/serviceIdentity";
import { VirtualServiceInputs } from "../schemas/virtualService";
import { droppedDirectors } from "./directors";
import { readFormerFile } from "./former-files";
import { applyHostClaims } from "./host-claims";
import { refuseForeign } from "./ownership";
import { installIpvsBoot, ipvsBootFacts, removeIpvsBootIfUnused } from "./ipvs-boot";
import { Listed, listedEntry } from "./listing";
import { HostSession, withHost } from "./session";

export function virtualServiceId(inputs: VirtualServiceInputs): string {
  return serviceKey(desiredService(inputs).id);
}

function vipClaimId(key: string): string {
  return `vs:${key}`;
}

/**
 * Creates or converges the service on every director, then holds its VIP there (when the director binds it).
 * `previous` is the state before an update: directors it had and the new inputs do not lose the service.
 */
export async function applyVirtualService(
  inputs: VirtualServiceInputs,
  previous?: VirtualServiceInputs,
): Promise<void> {
  const desired = desiredService(inputs);
  // A VIP held before and not any more is released (bindVip true -> false): its claim would re-add it at boot.
  const released = previous?.bindVip === true && !binds(inputs);
  await Promise.all(
    inputs.directors.map((director) => withHost(director, (s) => converge(s, inputs, desired, released))),
  );
  const removed = await droppedDirectors(previous?.directors ?? [], inputs.directors);
  await Promise.all(removed.map((director) => withHost(director, (s) => remove(s, inputs))));
}

const binds = (inputs: VirtualServiceInputs) => inputs.bindVip && serviceVips(inputs).length > 0;

async function converge(
  session: HostSession,
  inputs: VirtualServiceInputs,
  desired: IpvsService,
  releaseVip: boolean,
): Promise<void> {
  const key = serviceKey(desired.id);
  const fragment = serviceFragmentPath(key);
  const live = await session.read({ table: ipvsTableFact(), fragment: fileFact(fragment), ...ipvsBootFacts() });
  const former = await readFormerFile(session, serviceFragmentPath, key, holdsService(key));
  const ours = live.fragment ?? former?.content ?? null;
  refuseForeign(session, `virtual service ${key}`, live.table.services[key], ours, inputs.adopt);
  await session.apply([
    ...installIpvsBoot(live),
    ...planFiles([{ path: fragment, content: renderServiceRules(desired) }], { [fragment]: live.fragment }),
    ...planFormerFileRemoval(former),
    ...planService(desired, live.table),
    // Marks once the service exists: a marked packet before it would find no service and go to the local stack.
    ...(await markSteps(session, inputs)),
  ]);
  // The VIPs come last, so that no packet reaches the director before the service exists.
  if (binds(inputs)) {
    const claim = await vipClaim(session, key, serviceVips(inputs), inputs.vipInterface);
    await applyHostClaims(session, [claim], []);
  } else if (releaseVip) {
    await applyHostClaims(session, [], [vipClaimId(key)]);
  }
}

/**
 * A fwmark service's mark rules and their boot file, converged to what its match says now (the match of `inputs`;
 * none when it is being removed). Rules of an older match are deleted; a service of VIP:port has none.
 */
async function markSteps(session: HostSession, inputs: VirtualServiceInputs, removing = false): Promise<Step[]> {
  const id = desiredService(inputs).id;
  if (!isFwmarkService(id)) return [];
  const key = serviceKey(id);
  const path = markFragmentPath(key);
  const rules = removing ? [] : desiredMarkRules(inputs);
  const live = await session.read({ marks: markRulesFact(serviceFamily(inputs)), fragment: fileFact(path) });
  return [
    ...planFiles([{ path, content: rules.length > 0 ? renderMarkRules(rules) : null }], { [path]: live.fragment }),
    ...planMarkRules(key, rules, live.marks),
  ];
}

async function vipClaim(session: HostSession, key: string, vips: string[], configured?: string): Promise<HostClaim> {
  const family = ipFamily(vips[0]) ?? "inet";
  const held: ClaimedVip[] = [];
  for (const vip of vips) {
    const cidr = `${canonicalIp(vip)}/${hostPrefixLength(family)}`;
    held.push({ dev: configured ?? (await vipDevice(session, key, vip, cidr)), cidr, announce: true });
  }
  const devices = [...new Set(held.map((vip) => vip.dev))];
  return {
    id: vipClaimId(key),
    vips: held,
    sysctls:
      family === "inet6" ? Object.fromEntries(devices.flatMap((dev) => Object.entries(announceSysctls(dev)))) : {},
    routes: [],
    modules: [],
    links: [],
  };
}

async function vipDevice(session: HostSession, key: string, vip: string, cidr: string): Promise<string> {
  const family = ipFamily(vip) ?? "inet";
  const facts = await session.read({ route: routeToFact(vip), defaults: routesFact(family), claims: hostClaimsFact() });
  // Once the VIP is ours it routes via lo: keep the device chosen the first time.
  const held = facts.claims.find((c) => c.id === vipClaimId(key))?.vips.find((v) => v.cidr === cidr)?.dev;
  const routed = facts.route?.dev !== "lo" ? facts.route?.dev : undefined;
  const fallback = facts.defaults.find((r) => r.dst === "default")?.dev;
  const dev = held ?? routed ?? fallback;
  if (dev === undefined) throw new Error(`host ${session.name}: no interface to hold VIP ${vip}; set vipInterface`);
  return dev;
}

async function remove(session: HostSession, inputs: VirtualServiceInputs): Promise<void> {
  const desired = desiredService(inputs);
  const key = serviceKey(desired.id);
  const fragment = serviceFragmentPath(key);
  // VIPs first, then the marks: clients stop arriving before the service goes.
  await applyHostClaims(session, [], [vipClaimId(key)]);
  await session.apply(await markSteps(session, inputs, true));
  const live = await session.read({ table: ipvsTableFact(), fragment: fileFact(fragment) });
  const former = await readFormerFile(session, serviceFragmentPath, key, holdsService(key));
  await session.apply([
    ...planFiles([{ path: fragment, content: null }], { [fragment]: live.fragment }),
    ...planFormerFileRemoval(former),
    // Only a service we created (its boot fragment is written with it) or adopted: never one that was there before.
    ...(live.fragment !== null || former !== undefined ? planServiceRemoval(desired.id, live.table) : []),
  ]);
  await removeIpvsBootIfUnused(session);
}

export async function removeVirtualService(inputs: VirtualServiceInputs): Promise<void> {
  await Promise.all(inputs.directors.map((director) => withHost(director, (s) => remove(s, inputs))));
}

/** The service as the directors list it (one that drifted first) and the directors that lack it. */
export function readVirtualService(inputs: VirtualServiceInputs): Promise<Listed<IpvsService>> {
  const desired = desiredService(inputs);
  const key = serviceKey(desired.id);
  return listedEntry(
    inputs.directors,
    (table) => table.services[key],
    (live) => sameService(live, desired),
  );
}
