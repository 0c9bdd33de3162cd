import { setTimeout as sleep } from "timers/promises";
import { fileFact } from "../../facts/files";
import { destinationKey, IpvsDestination, serviceKey } from "../../model/ipvs";
import { ipvsTableFact } from "../../facts/ipvs-table";
import { snatRulesFact } from "../../facts/snat-rules";
import { desiredDestination, desiredSnatRule } from "../../plan/real-server";
import { holdsDestination, holdsSnatRule } from "../../plan/former-files";
import { Health, judgedEntry } from "../../plan/checked-real-server";
import { Actor, parseOwners, withoutOwner } from "../../plan/owners";
import { planQuiesce, sameDestination } from "../../plan/real-server";
import { planSnatRemoval } from "../../plan/snat";
import { sameSnatRule } from "../../model/snat-rule";
import { checkedRealServerPaths, destinationFragmentPath, snatFragmentPath } from "../../model/host-paths";
import { connectionKey, ConnectionSpec, log } from "../../remote";
import { ipFamily } from "../../model/ip";
import { RealServerInputs } from "../../schemas/real-server";
import { droppedDirectors, onEveryDirector, sameMachine } from "../../operations/directors";
import { readFormerFile } from "../../operations/former-files";
import { Listed, listedEntry, listedOn, UNREACHABLE_DIRECTOR } from "../../operations/listing";
import { readReachable } from "../../operations/unreachable";
import { convergeRealServersOnDirector, realServerOwnersPath, removeRealServersFromDirector } from "./on-directors";
import { claimOnRealServerHost, releaseOnRealServerHost } from "./on-host";
import { HostSession, withHost } from "../../operations/session";
import { sharedCheckerState, sharedConnectionCounts, sharedIpvsTable } from "../../operations/shared-reads";

export function realServerId(inputs: RealServerInputs): string {
  const dest = desiredDestination(inputs);
  return destinationKey(dest.service, dest.address, dest.port);
}

/**
 * Real server host first (VIP and ARP settings in place before any packet is sent to it), then the directors.
 * `previous` is the state before an update: what it had and the new inputs do not is released.
 */
export async function applyRealServer(
  inputs: RealServerInputs,
  actor: Actor,
  previous?: RealServerInputs,
): Promise<ConnectionSpec[]> {
  const key = realServerId(inputs);
  const dropped = previous ? await droppedDirectors(previous.directors, inputs.directors) : [];
  if (inputs.host) {
    await claimOnRealServerHost(inputs.host, inputs, key, actor);
  }
  const down = await onEveryDirector(
    inputs.directors,
    (director) => convergeRealServersOnDirector(director, { inputs, actor }),
    true,
  );
  if (previous) {
    await Promise.all(dropped.map((director) => removeRealServersFromDirector(director, { inputs: previous, actor })));
    // The old SNAT rule keeps matching until it is deleted (fullnat given up, or another snatSource).
    const oldSnat = desiredSnatRule(previous);
    if (oldSnat && !sameSnatRule(oldSnat, desiredSnatRule(inputs))) {
      await Promise.all(inputs.directors.map((director) => withHost(director, (s) => removeSnat(s, previous, inputs))));
    }
    const oldHost = previous.host;
    if (oldHost && (!inputs.host || !(await sameMachine(oldHost, inputs.host)))) {
      await releaseOnRealServerHost(oldHost, key, actor);
    }
  }
  return down;
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
  await session.apply(
    planSnatRemoval(
      snat,
      snatFragmentPath(key),
      keepFile,
      { rules: live.snatRules, fragment: live.snatFragment },
      former,
    ),
  );
}

/**
 * Directors first (no new connections), then the real server's own setup. Absent pieces are skipped. With
 * drainSeconds, the directors stop sending it new connections and the removal waits for the active ones to end.
 */
export async function removeRealServer(inputs: RealServerInputs, actor: Actor): Promise<void> {
  if (inputs.drainSeconds > 0 && !actor.undo) await drain(inputs, actor);
  await onEveryDirector(inputs.directors, (director) => removeRealServersFromDirector(director, { inputs, actor }));
  if (inputs.host) {
    await releaseOnRealServerHost(inputs.host, realServerId(inputs), actor);
  }
}

/**
 * Weight 0 on every director where the entry goes with this removal, then polls (shared, without the host locks)
 * until no director counts an active one. An entry another owner still holds (a rename) keeps serving.
 */
async function drain(inputs: RealServerInputs, actor: Actor): Promise<void> {
  const dest = desiredDestination(inputs);
  const key = realServerId(inputs);
  const draining = await Promise.all(
    inputs.directors.map((director) =>
      withHost(director, async (session) => {
        // A checked service's real server is keepalived's entry: its weight 0 stays until the reload deletes it.
        const block = inputs.serviceChecked ? checkedRealServerPaths(serviceKey(dest.service), key).block : undefined;
        const live = await session.read({
          table: ipvsTableFact(),
          fragment: fileFact(destinationFragmentPath(key)),
          owners: fileFact(realServerOwnersPath(key)),
          ...(block ? { block: fileFact(block) } : {}),
        });
        if (!withoutOwner(parseOwners(live.owners), actor).removeEntry) return false;
        const former = await readFormerFile(session, destinationFragmentPath, key, holdsDestination(key));
        // Without our entry here, the removal leaves it to its other owner: nothing to wait for.
        if (live.fragment === null && former === undefined && (live.block ?? null) === null) return false;
        await session.apply(planQuiesce(dest.service, dest.address, dest.port, live.table));
        return true;
      }),
    ),
  );
  const directors = inputs.directors.filter((_, i) => draining[i]);
  if (directors.length === 0) return;
  log().info(
    `real server ${key}: draining (weight 0 on ${directors.length} director(s)); waiting up to ` +
      `${inputs.drainSeconds} s for its active connections to end`,
  );
  const started = Date.now();
  const deadline = started + inputs.drainSeconds * 1000;
  let told = started;
  for (;;) {
    const active = await Promise.all(
      directors.map((director) => sharedConnectionCounts(director).then((counts) => counts[key]?.activeConn ?? 0)),
    );
    const left = active.reduce((a, b) => a + b, 0);
    if (left === 0) return;
    if (Date.now() >= deadline) {
      log().warn(
        `real server ${key}: ${left} active connection(s) left after ${inputs.drainSeconds} s of drain; removing it`,
      );
      return;
    }
    // A long wait is not silent: the operator sees it progress (or stall) every 10 s.
    if (Date.now() - told >= DRAIN_PROGRESS_MS) {
      told = Date.now();
      log().info(
        `real server ${key}: draining, ${left} active connection(s) left after ` +
          `${Math.round((told - started) / 1000)} s of up to ${inputs.drainSeconds} s`,
      );
    }
    await sleep(1000);
  }
}

const DRAIN_PROGRESS_MS = 10_000;

/** The destination as the directors list it (one that drifted first), the directors that lack it, its health. */
export async function readRealServer(
  inputs: RealServerInputs,
): Promise<Listed<IpvsDestination> & { health: Record<string, Health> | undefined }> {
  const desired = desiredDestination(inputs);
  const key = realServerId(inputs);
  if (!inputs.serviceChecked) {
    const listed = await listedEntry(
      inputs.directors,
      (table) => table.destinations[key],
      (live) => sameDestination(live, desired),
    );
    return { ...listed, health: undefined };
  }
  const reached = await readReachable(
    inputs.directors,
    async (director) => {
      const [table, checker] = await Promise.all([sharedIpvsTable(director), sharedCheckerState(director)]);
      return { director: connectionKey(director), ...judgedEntry(desired, table.destinations[key], checker[key]) };
    },
    UNREACHABLE_DIRECTOR,
  );
  const judged = reached.filter((j) => j !== undefined);
  const health = Object.fromEntries(judged.flatMap((j) => (j.health ? [[j.director, j.health]] : [])));
  return {
    ...listedOn(judged, (live) => sameDestination(live, desired)),
    health: Object.keys(health).length > 0 ? health : undefined,
  };
}
