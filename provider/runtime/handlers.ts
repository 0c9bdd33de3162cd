import { sameMachine } from "../operations/directors";
import { applyDirector, readDirector, removeDirector } from "../kinds/director/apply";
import { applyHaPair, HaPairState, readHaPair, removeHaPair } from "../kinds/ha-pair/apply";
import { haPairId } from "../plan/ha-pair";
import { Actor } from "../plan/owners";
import { applyRealServer, readRealServer, realServerId, removeRealServer } from "../kinds/real-server/apply";
import {
  applyVirtualService,
  readVirtualService,
  removeVirtualService,
  virtualServiceId,
} from "../kinds/virtual-service/apply";
import { connectionKey, ConnectionSpec } from "../remote";
import { directorInputsSchema, DirectorInputs } from "../schemas/director";
import { haPairInputsSchema, HaPairInputs } from "../schemas/ha-pair";
import { realServerInputsSchema, RealServerInputs } from "../schemas/real-server";
import { virtualServiceInputsSchema, VirtualServiceInputs } from "../schemas/virtual-service";
import { ResourceKind } from "./diff";

type Props = Record<string, unknown>;

/** What each resource kind does; inputs arrive checked (outputs always echo the checked inputs). */
export interface Handler {
  schema(): { parse(raw: unknown): unknown };
  id(inputs: Props): string;
  /**
   * Creates or converges for `actor` (the resource's URN owns what it creates); `previous` is the old state on update.
   * Returns the computed outputs.
   */
  apply(inputs: Props, actor: Actor, previous?: Props): Promise<Props>;
  /** Live values to merge over the stored outputs (`recorded`); undefined when the resource is gone. */
  read(inputs: Props, recorded: Props): Promise<Props | undefined>;
  /** Removes what `actor` owns (what another owner holds stays). */
  remove(inputs: Props, actor: Actor): Promise<void>;
}

/**
 * Directors that lost an entry the others still list, or that an apply skipped as known down: `missingFrom` (absent
 * when none), drift that the next apply repairs (runtime/diff.ts). An undefined value removes the one stored before.
 */
function missing(missingFrom: string[]): Props {
  return { missingFrom: missingFrom.length > 0 ? missingFrom : undefined };
}

/** The outputs of an apply that skipped directors listed as down: those miss the entry until the next apply. */
function skipped(down: ConnectionSpec[]): Props {
  return down.length > 0 ? { missingFrom: down.map(connectionKey) } : {};
}

const director: Handler = {
  schema: directorInputsSchema,
  id: (inputs) => `director:${connectionKey((inputs as DirectorInputs).connection)}`,
  apply: async (inputs, actor, previous) => {
    const next = inputs as DirectorInputs;
    const facts = await applyDirector(next, actor);
    // Another host (not another name of the same one) gives up the director setup.
    const before = previous as DirectorInputs | undefined;
    if (before && !(await sameMachine(before.connection, next.connection))) await removeDirector(before, actor);
    return { ...facts };
  },
  read: async (inputs) => ({ ...(await readDirector(inputs as DirectorInputs)) }),
  remove: (inputs, actor) => removeDirector(inputs as DirectorInputs, actor),
};

const virtualService: Handler = {
  schema: virtualServiceInputsSchema,
  id: (inputs) => virtualServiceId(inputs as VirtualServiceInputs),
  apply: async (inputs, actor, previous) => {
    const down = await applyVirtualService(
      inputs as VirtualServiceInputs,
      actor,
      previous as VirtualServiceInputs | undefined,
    );
    return skipped(down);
  },
  read: async (inputs) => {
    const { entry: live, missingFrom } = await readVirtualService(inputs as VirtualServiceInputs);
    if (!live) return undefined;
    const persistence = live.persistence
      ? {
          timeoutSeconds: live.persistence.timeoutSeconds,
          ...(live.persistence.netmask ? { netmask: live.persistence.netmask } : {}),
        }
      : undefined;
    return {
      scheduler: live.scheduler,
      schedulerFlags: live.flags,
      persistence,
      onePacket: live.onePacket,
      ...missing(missingFrom),
    };
  },
  remove: (inputs, actor) => removeVirtualService(inputs as VirtualServiceInputs, actor),
};

const realServer: Handler = {
  schema: realServerInputsSchema,
  id: (inputs) => realServerId(inputs as RealServerInputs),
  apply: async (inputs, actor, previous) => {
    const down = await applyRealServer(inputs as RealServerInputs, actor, previous as RealServerInputs | undefined);
    return skipped(down);
  },
  read: async (inputs) => {
    const { entry: live, missingFrom, health } = await readRealServer(inputs as RealServerInputs);
    if (!live) return undefined;
    const wanted = inputs as RealServerInputs;
    // fullnat is nat in the kernel table; its SNAT half lives in netfilter.
    const forwarding = wanted.forwarding === "fullnat" && live.forwarding === "nat" ? "fullnat" : live.forwarding;
    return {
      weight: live.weight,
      upperThreshold: live.upperThreshold,
      lowerThreshold: live.lowerThreshold,
      forwarding,
      ...missing(missingFrom),
      // Checked services: each director's keepalived view ("up" or "down"), as of this refresh.
      health,
    };
  },
  remove: (inputs, actor) => removeRealServer(inputs as RealServerInputs, actor),
};

const haPair: Handler = {
  schema: haPairInputsSchema,
  id: (inputs) => haPairId(inputs as HaPairInputs),
  apply: async (inputs, actor, previous) => ({
    ...(await applyHaPair(inputs as HaPairInputs, actor, previous as HaPairInputs | undefined)),
  }),
  read: async (inputs, recorded) => {
    const live = await readHaPair(inputs as HaPairInputs, recorded as unknown as HaPairState);
    return live && { ...live };
  },
  remove: (inputs, actor) => removeHaPair(inputs as HaPairInputs, actor),
};

export const HANDLERS: Record<ResourceKind, Handler> = { director, virtualService, realServer, haPair };
