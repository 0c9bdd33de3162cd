// A RealServer: one destination of a virtual service on each of its directors, and (with `host`) its own side.
import { destinationKey } from "../../model/ipvs";
import { desiredDestination } from "../../plan/real-server";
import { realServerInputsSchema, RealServerInputs } from "../../schemas/real-server";
import { Kind } from "../kind";
import { HOST_WHOLE, hostDrift, missing, ON_EVERY_DIRECTOR, skipped } from "../outputs";
import { unreachableHost, warnUnreachable } from "../../operations/unreachable";
import { applyRealServer, readRealServer, realServerId, removeRealServer } from "./apply";
import { realServerHostDrift } from "./on-host";

export const realServerKind: Kind<RealServerInputs> = {
  schema: realServerInputsSchema,
  id: realServerId,
  replaceOn: ["service", "address", "port"],
  entryKey(inputs) {
    const dest = desiredDestination(inputs);
    return destinationKey(dest.service, dest.address, dest.port);
  },
  computed: ["missingFrom", "health", "hostDrift"],
  expectedLive: () => ({ ...ON_EVERY_DIRECTOR, ...HOST_WHOLE }),
  adopts: "real server",
  async apply(inputs, actor, previous) {
    return skipped(await applyRealServer(inputs, actor, previous));
  },
  async read(inputs) {
    const { entry: live, missingFrom, health } = await readRealServer(inputs);
    if (!live) return undefined;
    const drift = inputs.host ? await readHostDrift(inputs.host) : [];
    // fullnat is nat in the kernel table; its SNAT half lives in netfilter.
    const forwarding = inputs.forwarding === "fullnat" && live.forwarding === "nat" ? "fullnat" : live.forwarding;
    return {
      weight: live.weight,
      upperThreshold: live.upperThreshold,
      lowerThreshold: live.lowerThreshold,
      forwarding,
      ...missing(missingFrom),
      // Checked services: each director's keepalived view ("up" or "down"), as of this refresh.
      health,
      ...hostDrift(drift),
    };
  },
  remove: (inputs, actor) => removeRealServer(inputs, actor),
};

/** The host's drift; none when the host does not answer (its setup is kept as last known, with a warning). */
async function readHostDrift(host: NonNullable<RealServerInputs["host"]>): Promise<string[]> {
  try {
    return await realServerHostDrift(host);
  } catch (error) {
    const unreachable = unreachableHost(error);
    if (!unreachable) throw error;
    warnUnreachable(unreachable, "its host side is not checked for drift");
    return [];
  }
}
