import { setTimeout as sleep } from "timers/promises";
import { fileFact, unitEnabledFact } from "../facts/files";
import { interfaceAddressesFact } from "../facts/interfaceAddresses";
import { programPresentFact, unitActiveFact } from "../facts/services";
import { installPackage } from "../plan/packages";
import {
  expectedKeepalived,
  haPairId,
  keepalivedConfConflict,
  keepalivedFingerprint,
  planKeepalived,
  planKeepalivedRemoval,
} from "../plan/haPair";
import { PairRole, renderKeepalivedConf } from "../render/keepalivedConf";
import { KEEPALIVED_CONF, KEEPALIVED_DROPIN, KEEPALIVED_ENABLED_MARKER, KEEPALIVED_UNIT_NAME } from "../render/paths";
import { HaPairInputs } from "../schemas/haPair";
import { canonicalIp } from "../schemas/ip";
import { HostSession, withHost } from "./session";
import { log } from "../remote";

const ROLES: PairRole[] = ["primary", "backup"];

export interface HaPairState {
  /** The SSH host of the director holding the VIPs ("" when not exactly one does: both down, or split brain). */
  master: string;
  /** Per member: the fingerprint of the config keepalived runs with (see keepalivedFingerprint). */
  keepalived: Record<PairRole, string>;
}

function keepalivedFacts() {
  return {
    conf: fileFact(KEEPALIVED_CONF),
    dropIn: fileFact(KEEPALIVED_DROPIN),
    enabled: unitEnabledFact(KEEPALIVED_UNIT_NAME),
    active: unitActiveFact(KEEPALIVED_UNIT_NAME),
    enabledByUs: fileFact(KEEPALIVED_ENABLED_MARKER),
    installed: programPresentFact("keepalived"),
  };
}

async function readKeepalived(session: HostSession) {
  const facts = await session.read(keepalivedFacts());
  return { ...facts, enabledByUs: facts.enabledByUs !== null };
}

/**
 * Both members are checked before either is touched (a foreign keepalived.conf stops the pair, not half of it).
 * The primary goes first: it starts as master, and the backup, started next, hears it and never takes the VIPs.
 */
export async function applyHaPair(inputs: HaPairInputs): Promise<HaPairState> {
  const id = haPairId(inputs);
  for (const role of ROLES) {
    await withHost(inputs[role].connection, async (session) => {
      const live = await readKeepalived(session);
      const conflict = keepalivedConfConflict(id, live.conf);
      if (conflict) throw new Error(`host ${session.name}: ${conflict}`);
      if (!live.installed && !inputs.installKeepalived) {
        throw new Error(`host ${session.name}: keepalived is not installed; install it or set installKeepalived: true`);
      }
    });
  }
  for (const role of ROLES) {
    await withHost(inputs[role].connection, async (session) => {
      let live = await readKeepalived(session);
      if (!live.installed) {
        await session.apply([installPackage("keepalived")]);
        live = await readKeepalived(session);
      }
      await session.apply(planKeepalived(id, renderKeepalivedConf(id, inputs, role), live));
    });
  }
  return awaitOneMaster(inputs);
}

/**
 * After a change VRRP elects within a few adverts. The good end is one holder: the primary when it preempts, either
 * member otherwise. None means keepalived is not running; both means the members do not hear each other.
 */
async function awaitOneMaster(inputs: HaPairInputs): Promise<HaPairState> {
  const started = Date.now();
  const deadline = started + (4 * inputs.advertIntervalSeconds + 10) * 1000;
  const expected = inputs.preempt ? inputs.primary.connection.host : undefined;
  log().info(`HA pair ${haPairId(inputs)}: waiting for VRRP to settle on one holder of the VIPs`);
  for (;;) {
    const holders = await vipHolders(inputs);
    if (holders.length === 1 && (expected === undefined || holders[0] === expected)) {
      log().info(`HA pair ${haPairId(inputs)}: ${holders[0]} holds the VIPs (${(Date.now() - started) / 1000} s)`);
      return { master: holders[0], keepalived: expectedKeepalived(inputs) };
    }
    if (Date.now() > deadline) {
      const vip = inputs.vips[0].address;
      throw new Error(
        holders.length === 0
          ? `HA pair ${haPairId(inputs)}: no director holds ${vip}; see \`journalctl -u keepalived\` on both`
          : holders.length === 1
            ? `HA pair ${haPairId(inputs)}: the backup ${holders[0]} holds ${vip}, the primary did not take it back ` +
              `(is keepalived running on ${expected}? see \`journalctl -u keepalived\`)`
            : `HA pair ${haPairId(inputs)}: both directors hold ${vip}: VRRP adverts (protocol 112) do not reach the ` +
              `peer on ${inputs.primary.interface}/${inputs.backup.interface} (filtered multicast, another virtual_router_id?)`,
      );
    }
    await sleep(500);
  }
}

/** Who holds the VIPs and what keepalived runs with; undefined when neither member has this pair's config. */
export async function readHaPair(inputs: HaPairInputs): Promise<HaPairState | undefined> {
  const id = haPairId(inputs);
  const live = await Promise.all(
    ROLES.map((role) =>
      withHost(inputs[role].connection, async (session) => {
        const { conf, active } = await session.read({
          conf: fileFact(KEEPALIVED_CONF),
          active: unitActiveFact(KEEPALIVED_UNIT_NAME),
        });
        const ours = conf !== null && keepalivedConfConflict(id, conf) === undefined;
        return { ours, fingerprint: keepalivedFingerprint(conf, active) };
      }),
    ),
  );
  if (!live.some((member) => member.ours)) return undefined;
  const holders = await vipHolders(inputs);
  return {
    master: holders.length === 1 ? holders[0] : "",
    keepalived: { primary: live[0].fingerprint, backup: live[1].fingerprint },
  };
}

/** The SSH hosts of the members that hold the first VIP. */
async function vipHolders(inputs: HaPairInputs): Promise<string[]> {
  const vip = inputs.vips[0];
  const held = await Promise.all(
    ROLES.map(async (role) => {
      const member = inputs[role];
      const { addresses } = await withHost(member.connection, (session) =>
        session.read({ addresses: interfaceAddressesFact(vip.interface ?? member.interface) }),
      );
      return addresses.some((a) => canonicalIp(a.cidr.split("/")[0]) === canonicalIp(vip.address));
    }),
  );
  return ROLES.filter((_, i) => held[i]).map((role) => inputs[role].connection.host);
}

/** The primary goes first: the backup takes over the VIPs until it stops too. */
export async function removeHaPair(inputs: HaPairInputs): Promise<void> {
  const id = haPairId(inputs);
  for (const role of ROLES) {
    await withHost(inputs[role].connection, async (session) =>
      session.apply(planKeepalivedRemoval(id, await readKeepalived(session))),
    );
  }
}
