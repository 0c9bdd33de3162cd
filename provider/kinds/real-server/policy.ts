// A RealServer: one destination of a virtual service on each of its directors, and (with `host`) its own side.
import { destinationKey } from "../../model/ipvs";
import { desiredDestination } from "../../plan/desired-entries";
import { realServerInputsSchema, RealServerInputs } from "../../schemas/real-server";
import { Kind } from "../kind";
import { missing, ON_EVERY_DIRECTOR, skipped } from "../outputs";
import { applyRealServer, readRealServer, realServerId, removeRealServer } from "./apply";

export const realServerKind: Kind<RealServerInputs> = {
  schema: realServerInputsSchema,
  id: realServerId,
  replaceOn: ["service", "address", "port"],
  entryKey(inputs) {
    const dest = desiredDestination(inputs);
    return destinationKey(dest.service, dest.address, dest.port);
  },
  computed: ["missingFrom", "health"],
  expectedLive: () => ON_EVERY_DIRECTOR,
  adopts: "real server",
  async apply(inputs, actor, previous) {
    return skipped(await applyRealServer(inputs, actor, previous));
  },
  async read(inputs) {
    const { entry: live, missingFrom, health } = await readRealServer(inputs);
    if (!live) return undefined;
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
    };
  },
  remove: (inputs, actor) => removeRealServer(inputs, actor),
};
