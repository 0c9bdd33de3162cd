// A VirtualService: one IPVS service (protocol + VIP + port, or fwmark) on each of its directors.
import { serviceKey } from "../../model/ipvs";
import { desiredServiceId } from "../../plan/desired-entries";
import { virtualServiceInputsSchema, VirtualServiceInputs } from "../../schemas/virtual-service";
import { Kind } from "../kind";
import { missing, ON_EVERY_DIRECTOR, skipped } from "../outputs";
import { applyVirtualService, readVirtualService, removeVirtualService, virtualServiceId } from "./apply";

export const virtualServiceKind: Kind<VirtualServiceInputs> = {
  schema: virtualServiceInputsSchema,
  id: virtualServiceId,
  replaceOn: ["protocol", "address", "port", "fwmark", "family"],
  entryKey: (inputs) => serviceKey(desiredServiceId(inputs)),
  computed: ["missingFrom"],
  expectedLive: () => ON_EVERY_DIRECTOR,
  adopts: "virtual service",
  async apply(inputs, actor, previous) {
    return skipped(await applyVirtualService(inputs, actor, previous));
  },
  async read(inputs) {
    const { entry: live, missingFrom } = await readVirtualService(inputs);
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
  remove: (inputs, actor) => removeVirtualService(inputs, actor),
};
