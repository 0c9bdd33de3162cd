import { setTimeout as sleep } from "timers/promises";
import { directoryListingFact, fileFact, unitEnabledFact } from "../../facts/files";
import { interfaceAddressesFact } from "../../facts/interface-addresses";
import { programPresentFact, unitActiveFact } from "../../facts/services";
import { ipvsTableFact } from "../../facts/ipvs-table";
import { IpvsTable } from "../../model/ipvs";
import { checkerStateFact } from "../../facts/checker-state";
import { planChecker } from "../../plan/checker";
import { installPackage } from "../../plan/packages";
import { command } from "../../model/shell";
import {
  checkedServiceKeys,
  expectedKeepalived,
  haPairId,
  HaPairState,
  holdsVip,
  KeepalivedConfig,
  keepalivedConfigTest,
  keepalivedConfConflict,
  keepalivedConfigChanges,
  pairOrder,
  pairStateOf,
  planKeepalived,
  planKeepalivedRemoval,
  renderKeepalived,
  ROLES,
  runsCheckedServices,
  stillHeldState,
  tableDifferences,
  unsettledReason,
  vrrpSettleTimes,
} from "../../plan/ha-pair";
import { Actor, Owner, parseOwners, planOwners, withOwner, withoutOwner } from "../../plan/owners";
import { ConfMode, PairRole } from "../../render/keepalived-conf";
import {
  CHECKER_UNIT_NAME,
  KEEPALIVED_CONFIG_TEST_DIR,
  KEEPALIVED_CHECKED_DIR,
  KEEPALIVED_CONF,
  KEEPALIVED_DROPIN,
  KEEPALIVED_ENABLED_MARKER,
  KEEPALIVED_SCRIPT_DIR,
  KEEPALIVED_UNIT_NAME,
  ownersPath,
} from "../../model/host-paths";
import { HaPairInputs } from "../../schemas/ha-pair";
import { checkerFacts, checkerOf } from "../../operations/checked-services";
import { droppedDirectors, sameMachine } from "../../operations/directors";
import { HostSession, withHost } from "../../operations/session";
import { HOSTS_DOWN_VARIABLE, knownDown, knownDownError, readReachable } from "../../operations/unreachable";
import { ConnectionSpec, log, registerSecret } from "../../remote";

/** The HA pair resources (URNs) that own a member's keepalived setup (plan/owners.ts). */
const PAIR_OWNERS = ownersPath("ha-pair");

function pairKeepalivedFacts() {
  return {
    ...checkerFacts(),
    conf: fileFact(KEEPALIVED_CONF),
    dropIn: fileFact(KEEPALIVED_DROPIN),
    enabled: unitEnabledFact(KEEPALIVED_UNIT_NAME),
    active: unitActiveFact(KEEPALIVED_UNIT_NAME),
    enabledByUs: fileFact(KEEPALIVED_ENABLED_MARKER),
    owners: fileFact(PAIR_OWNERS),
    installed: programPresentFact("keepalived"),
    scriptNames: directoryListingFact(KEEPALIVED_SCRIPT_DIR),
    checkedNames: directoryListingFact(KEEPALIVED_CHECKED_DIR),
  };
}

/** What keepalived runs with on the host, with the live content of the scripts `wanted` names. */
async function readKeepalived(session: HostSession, wanted?: KeepalivedConfig) {
  const facts = await session.read(pairKeepalivedFacts());
  const paths = wanted?.scripts.map((script) => script.path) ?? [];
  const scripts = paths.length > 0 ? await session.read(Object.fromEntries(paths.map((p) => [p, fileFact(p)]))) : {};
  const legacy = runsCheckedServices(facts.conf, facts.checkedNames);
  return { ...facts, enabledByUs: facts.enabledByUs !== null, scripts, checker: checkerOf(facts), legacy };
}

/**
 * A member configured by an older lvs-pulumi runs its checked services in the pair's keepalived. `change` (the new
 * configuration reloaded, or keepalived stopped) makes that keepalived delete their entries: the checker instance,
 * started before it (it takes the entries over), is restarted once they are gone, and adds them again. The gap is
 * that of a restart (under a second), once per member.
 */
async function moveCheckedToChecker(
  session: HostSession,
  live: Awaited<ReturnType<typeof readKeepalived>>,
  change: () => Promise<void>,
): Promise<void> {
  if (!live.legacy) return change();
  await session.apply(planChecker(live.checker, { changed: false, restart: false }));
  const { checker } = await session.read({ checker: checkerStateFact() });
  const services = checkedServiceKeys(checker);
  await change();
  const awaitTable = (done: (table: IpvsTable) => boolean) =>
    session.readUntil({ table: ipvsTableFact() }, ({ table }) => done(table), 10_000);
  await awaitTable((table) => services.every((key) => table.services[key] === undefined));
  await session.apply([command("systemctl", "restart", CHECKER_UNIT_NAME)]);
  if (!(await awaitTable((table) => services.every((key) => table.services[key] !== undefined))).done) {
    throw new Error(
      `host ${session.name}: the checked services ${services.join(", ")} are not back in the table 10 s after ` +
        `${CHECKER_UNIT_NAME} restarted; see \`journalctl -u ${CHECKER_UNIT_NAME}\``,
    );
  }
}

/** The VRRP password is masked in every log line and error from here on. */
function registerPairSecrets(inputs: HaPairInputs): void {
  registerSecret(inputs.authentication?.password);
}

/**
 * Both members are checked before either is touched (a foreign keepalived.conf, or a pair of another stack, stops
 * the pair, not half of it). The member holding the VIPs is configured first (a reload keeps them where they are);
 * the other member, when it runs and its configuration changes, is stopped before anything changes: two members
 * running configurations that do not match (another virtual router id, another advert interval) each become master
 * and both take the VIPs. A change of the holder's VRRP instance (router id, interface, unicast) goes through a
 * take-over configuration (see renderKeepalivedConf) so that the VIPs never leave it. Then the holder is checked to
 * hold them alone, and the other member configured and started. On a first apply (nobody holds them) the primary
 * goes first: it starts as master, the backup hears it and never takes the VIPs. A member the update replaced by
 * another machine gives up its keepalived last. A failed step names what was done before it, so the pair's state
 * is known. Before any of it, each member's new configuration passes `keepalived -t` on that member: one keepalived
 * refuses fails the apply with its message and changes nothing on either. The check runs again in the script that
 * writes the files (the host lock was released in between, and a member installing keepalived now can only be
 * checked then).
 */
export async function applyHaPair(inputs: HaPairInputs, actor: Actor, previous?: HaPairInputs): Promise<HaPairState> {
  registerPairSecrets(inputs);
  const id = haPairId(inputs);
  // An update is the same pair (runtime/diff.ts): its config under the former id (hosts written otherwise, another
  // router id) is ours.
  const formerIds = previous ? [haPairId(previous)] : [];
  const config = (role: PairRole, mode?: ConfMode) => renderKeepalived(id, inputs, role, undefined, mode);
  const staged = (role: PairRole, mode?: ConfMode) =>
    renderKeepalived(id, inputs, role, KEEPALIVED_CONFIG_TEST_DIR, mode);
  const owners: Partial<Record<PairRole, Owner[] | undefined>> = {};
  /** Refuses what the member cannot take; `keepalived -t` of its new configuration. Returns what it runs now. */
  const testMemberConfig = (role: PairRole, mode: ConfMode) =>
    withHost(inputs[role].connection, async (session) => {
      const live = await readKeepalived(session, config(role, mode));
      const conflict = keepalivedConfConflict(id, live.conf, formerIds);
      if (conflict) throw new Error(`host ${session.name}: ${conflict}`);
      owners[role] = withOwner(parseOwners(live.owners), actor, false, `HA pair ${id}`, session.name);
      if (!live.installed && !inputs.installKeepalived) {
        throw new Error(`host ${session.name}: keepalived is not installed; install it or set installKeepalived: true`);
      }
      if (live.installed && keepalivedConfigChanges(config(role, mode), live)) {
        await session.apply([keepalivedConfigTest(staged(role, mode))]).catch((error: Error) => {
          throw new Error(
            `HA pair ${id}: keepalived on the ${role} ${session.name} refuses the new configuration; nothing was changed on either member: ${error.message}`,
          );
        });
      }
      return live;
    });
  const configure = (role: PairRole, mode: ConfMode) =>
    withHost(inputs[role].connection, async (session) => {
      let live = await readKeepalived(session, config(role, mode));
      if (!live.installed) {
        await session.apply([installPackage("keepalived")]);
        live = await readKeepalived(session, config(role, mode));
      }
      const steps = [
        ...planKeepalived(id, config(role, mode), staged(role, mode), live, formerIds),
        ...planOwners(PAIR_OWNERS, owners[role], live.owners),
      ];
      await moveCheckedToChecker(session, live, () => session.apply(steps));
    });

  const down = ROLES.filter((role) => knownDown(inputs[role].connection));
  if (down.length === ROLES.length) throw knownDownError(inputs.primary.connection);
  if (down.length === 1) {
    // The live member alone, raised above the other: that one, back with a table that missed this run's changes,
    // hears a higher priority and stays backup until an up without it listed converges it and releases the hold.
    const live = ROLES.find((role) => role !== down[0])!;
    await testMemberConfig(live, "hold");
    await configure(live, "hold");
    log().warn(
      `HA pair ${id}: the ${down[0]} ${inputs[down[0]].connection.host} is listed in ${HOSTS_DOWN_VARIABLE}: the ` +
        `${live} ${inputs[live].connection.host} holds the VIPs until an up without it converges the ${down[0]}`,
    );
    const state = await awaitOneMaster(inputs, inputs[live].connection.host);
    return { ...state, keepalived: expectedKeepalived(inputs, down[0]) };
  }

  if (await sameMachine(inputs.primary.connection, inputs.backup.connection)) {
    throw new Error(
      `HA pair ${id}: the primary ${inputs.primary.connection.host} and the backup ${inputs.backup.connection.host} ` +
        "are one machine (same machine id and SSH host keys): a pair needs two directors; nothing was changed",
    );
  }
  // Former members that are none of the new ones by machine (not another name or port of one).
  const members = (pair: HaPairInputs) => ROLES.map((role) => pair[role].connection);
  const leaving = previous ? await droppedDirectors(members(previous), members(inputs)) : [];
  const held: Partial<Record<PairRole, boolean>> = {};
  for (const role of ROLES) held[role] = (await testMemberConfig(role, "declared")).conf === config(role, "hold").conf;
  const holders = await vipHolders(inputs);
  // The end of a hold (the other member was known down): that member, converged by now, is configured first; the
  // holder's declared priority then lets VRRP elect as declared.
  const { holder, other, releasing, order, takeOver } = pairOrder(inputs, previous, held, holders);
  const member = (role: PairRole) => `the ${role} ${inputs[role].connection.host}`;
  const done: string[] = [];
  const step = async (what: string, action: () => Promise<string | undefined>) => {
    try {
      const result = await action();
      if (result !== undefined) done.push(result);
    } catch (error) {
      const before = done.length > 0 ? done.join("; ") : "nothing";
      throw new Error(`HA pair ${id}: ${what} failed: ${(error as Error).message}. Done before it: ${before}`);
    }
  };

  // Releasing implies a holder (pairOrder).
  if (releasing && holder !== undefined && other !== undefined) {
    // The member that was down takes the VIPs back only with the table the holder served with: a change it missed
    // that is still pending (a delete runs after the pair's update) keeps the hold until the next up.
    const [holderTable, backTable] = await Promise.all(
      [holder, other].map((role) => withHost(inputs[role].connection, (s) => s.read({ table: ipvsTableFact() }))),
    );
    const differing = tableDifferences(holderTable.table, backTable.table);
    if (differing.length > 0) {
      log().warn(
        `HA pair ${id}: ${member(holder)} keeps the VIPs: the IPVS table of ${member(other)} differs in ` +
          `${differing.slice(0, 5).join(", ")}${differing.length > 5 ? ", …" : ""}; the next up gives them back once ` +
          "both tables are equal",
      );
      return stillHeldState(inputs, holder, other);
    }
  }
  if (other !== undefined && !releasing) {
    await step(`stopping keepalived on ${member(other)}`, () =>
      withHost(inputs[other].connection, async (session) => {
        const live = await readKeepalived(session);
        if (!live.active || live.conf === config(other).conf) return undefined;
        await session.apply([command("systemctl", "stop", KEEPALIVED_UNIT_NAME)]);
        return `stopped keepalived on ${member(other)} (it held no VIP) for the change`;
      }),
    );
  }
  for (const role of order) {
    if (role === holder && takeOver) {
      await step(`moving the VIPs of ${member(role)} to the new VRRP instance`, async () => {
        await configure(role, "take over");
        await awaitOneMaster(inputs, inputs[role].connection.host);
        return `${member(role)} holds the VIPs in the new VRRP instance`;
      });
    }
    if (role === holder && releasing) {
      log().info(`HA pair ${id}: ${member(other!)} is configured; ${member(role)} gives up its hold on the VIPs`);
    }
    await step(`configuring ${member(role)}`, async () => {
      await configure(role, "declared");
      return `configured ${member(role)}`;
    });
    if (role === holder && !releasing) {
      await step(`checking that ${member(role)} still holds the VIPs alone`, async () => {
        await awaitOneMaster(inputs, inputs[role].connection.host);
        return `${member(role)} holds the VIPs alone`;
      });
    }
  }
  const state = await awaitOneMaster(inputs, inputs.preempt ? inputs.primary.connection.host : undefined);
  for (const connection of leaving) {
    await step(`giving up keepalived on the former member ${connection.host}`, async () => {
      await removeMember(connection, haPairId(previous as HaPairInputs), actor);
      return `gave up keepalived on ${connection.host}`;
    });
  }
  return state;
}

/**
 * After a change VRRP elects within a few adverts. The good end is one holder: `expected` when given, either member
 * otherwise. None means keepalived is not running; both means the members do not hear each other.
 */
async function awaitOneMaster(inputs: HaPairInputs, expected: string | undefined): Promise<HaPairState> {
  const started = Date.now();
  const { masterDownMs, deadlineMs } = vrrpSettleTimes(inputs);
  const deadline = started + deadlineMs;
  log().info(`HA pair ${haPairId(inputs)}: waiting for VRRP to settle on one holder of the VIPs`);
  let settledSince: number | undefined;
  for (;;) {
    const holders = await vipHolders(inputs);
    const good = holders.length === 1 && (expected === undefined || holders[0] === expected);
    settledSince = good ? (settledSince ?? Date.now()) : undefined;
    if (settledSince !== undefined && Date.now() - settledSince >= masterDownMs) {
      log().info(`HA pair ${haPairId(inputs)}: ${holders[0]} holds the VIPs (${(Date.now() - started) / 1000} s)`);
      return { master: holders[0], keepalived: expectedKeepalived(inputs) };
    }
    // Past the deadline only a holder still settling gets its master-down interval to finish.
    if (Date.now() > deadline && settledSince === undefined)
      throw new Error(unsettledReason(inputs, holders, expected));
    await sleep(500);
  }
}

/** Who holds the VIPs and what keepalived runs with (pairStateOf): each member that answers is read. */
export async function readHaPair(
  inputs: HaPairInputs,
  recorded: Record<string, unknown> = {},
): Promise<HaPairState | undefined> {
  registerPairSecrets(inputs);
  const id = haPairId(inputs);
  const live = await readReachable(
    ROLES,
    (role) =>
      withHost(inputs[role].connection, async (session) => {
        const watched = watchedVip(inputs, role);
        const { conf, active, addresses } = await session.read({
          conf: fileFact(KEEPALIVED_CONF),
          active: unitActiveFact(KEEPALIVED_UNIT_NAME),
          ...watched.fact,
        });
        return { conf, active, holds: watched.held(addresses) };
      }),
    `HA pair ${id}: the master read from the other member, this member's keepalived state kept as last known`,
  );
  return pairStateOf(inputs, live, recorded);
}

/** The SSH hosts of the members that hold the first VIP. */
async function vipHolders(inputs: HaPairInputs): Promise<string[]> {
  const held = await Promise.all(
    ROLES.map(async (role) => {
      // A member listed as down is not asked (it may hold them on its side of a cut cable, where nobody reaches it).
      if (knownDown(inputs[role].connection)) return false;
      const watched = watchedVip(inputs, role);
      const { addresses } = await withHost(inputs[role].connection, (session) => session.read(watched.fact));
      return watched.held(addresses);
    }),
  );
  return ROLES.filter((_, i) => held[i]).map((role) => inputs[role].connection.host);
}

/** The pair's first VIP on `role`'s interface: the fact to read, and whether the addresses read hold it. */
function watchedVip(inputs: HaPairInputs, role: PairRole) {
  const vip = inputs.vips[0];
  return {
    fact: { addresses: interfaceAddressesFact(vip.interface ?? inputs[role].interface) },
    held: (addresses: { cidr: string }[]) => holdsVip(addresses, vip.address),
  };
}

/**
 * The primary goes first: the backup takes over the VIPs until it stops too. While another HA pair resource owns
 * the members (the new name of a rename), only `actor`'s ownership goes.
 */
export async function removeHaPair(inputs: HaPairInputs, actor: Actor): Promise<void> {
  registerPairSecrets(inputs);
  const id = haPairId(inputs);
  for (const role of ROLES) await removeMember(inputs[role].connection, id, actor);
}

async function removeMember(connection: ConnectionSpec, id: string, actor: Actor): Promise<void> {
  await withHost(connection, async (session) => {
    const live = await readKeepalived(session);
    const release = withoutOwner(parseOwners(live.owners), actor);
    const owners = planOwners(PAIR_OWNERS, release.owners, live.owners);
    if (!release.removeEntry) return session.apply(owners);
    await moveCheckedToChecker(session, live, () => session.apply([...planKeepalivedRemoval(id, live), ...owners]));
  });
}
