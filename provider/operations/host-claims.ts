import { fileFact, unitEnabledFact } from "../facts/files";
import { hostClaimsFact, hostOriginalsFact } from "../facts/host-claims";
import { InterfaceAddress, interfaceAddressesFact } from "../facts/interface-addresses";
import { LinkState, linkFact } from "../facts/link";
import { loadedModulesFact } from "../facts/modules";
import { routesFact } from "../facts/routes";
import { sysctlFact } from "../facts/sysctl";
import { HostClaim } from "../model/host-claim";
import { ORIGINALS_FILE, REALSERVER_UNIT_NAME } from "../model/host-paths";
import { claimsChange, planHostClaims } from "../plan/host-claims";
import { Step } from "../plan/step";
import { ConnectionSpec, sessionKey } from "../remote";
import { HostSession, withHost } from "./session";
import { SharedReads } from "./shared-reads";

/**
 * Converges a host's claimed setup (VIPs, sysctls, routes, modules, links) after adding or replacing `add` and
 * dropping the claims with ids in `release` (plan/host-claims.ts): the stored claims, then what the change needs of
 * the host, are read; one script applies it.
 */
export async function applyHostClaims(session: HostSession, add: HostClaim[], release: string[]): Promise<void> {
  await session.apply(await hostClaimsSteps(session, add, release));
}

/**
 * The steps applyHostClaims would run, from a read of the host. With nothing added or released: what the host lacks
 * of its stored claims (drift), none when it holds all of them.
 */
export async function hostClaimsSteps(session: HostSession, add: HostClaim[], release: string[]): Promise<Step[]> {
  const stored = await session.read({ claims: hostClaimsFact(), originals: hostOriginalsFact() });
  const change = claimsChange(stored.claims, add, release);
  const facts = await session.read({
    loadedModules: loadedModulesFact(),
    sysctls: sysctlFact(change.sysctls),
    routes4: routesFact("inet"),
    routes6: routesFact("inet6"),
    unitEnabled: unitEnabledFact(REALSERVER_UNIT_NAME),
    originalsFile: fileFact(ORIGINALS_FILE),
    ...Object.fromEntries(change.devices.map((dev, i) => [`addresses${i}`, interfaceAddressesFact(dev)])),
    ...Object.fromEntries(change.links.map((dev, i) => [`link${i}`, linkFact(dev)])),
    ...Object.fromEntries(change.files.map((path, i) => [`file${i}`, fileFact(path)])),
    ...Object.fromEntries(change.formerClaims.map((claim, i) => [`former${i}`, fileFact(claim.path)])),
  });
  const at = facts as unknown as Record<string, unknown>;
  const byIndex = <T>(items: string[], prefix: string, value: (fact: unknown) => T) =>
    Object.fromEntries(items.map((item, i) => [item, value(at[`${prefix}${i}`])]));
  return planHostClaims(change, {
    originals: stored.originals,
    originalsFile: facts.originalsFile,
    loadedModules: facts.loadedModules,
    sysctls: facts.sysctls,
    routes: { inet: facts.routes4, inet6: facts.routes6 },
    addresses: byIndex(change.devices, "addresses", (a) => (a as InterfaceAddress[]).map((address) => address.cidr)),
    links: byIndex(change.links, "link", (link) => link as LinkState),
    unitEnabled: facts.unitEnabled,
    files: byIndex(change.files, "file", (content) => content as string | null),
    formerFiles: byIndex(
      change.formerClaims.map((claim) => claim.path),
      "former",
      (content) => content as string | null,
    ),
  });
}

const drifts = new SharedReads<Step[]>();

/**
 * What a host lacks of its stored claims (hostClaimsSteps with no change), read once for the resources that refresh
 * on that host together: real servers sharing a host share its claims. Not for a caller that holds the host's lock.
 */
export function sharedClaimsDrift(host: ConnectionSpec): Promise<Step[]> {
  return drifts.read(sessionKey(host), () => withHost(host, (session) => hostClaimsSteps(session, [], [])));
}
