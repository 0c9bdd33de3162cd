// An HAPair: keepalived's VRRP instance on two directors, holding the VIPs on one of them at a time.
import { expectedKeepalived, haPairId } from "../../plan/ha-pair";
import { knownDown } from "../../operations/unreachable";
import { haPairInputsSchema, HaPairInputs } from "../../schemas/ha-pair";
import { Kind } from "../kind";
import { applyHaPair, readHaPair, removeHaPair } from "./apply";

export const haPairKind: Kind<HaPairInputs> = {
  schema: haPairInputsSchema,
  id: haPairId,
  // Updated in place, whatever changes (apply.ts): a replacement would stop keepalived on both members before the
  // new pair even started. The update keeps one member holding the VIPs throughout and gives up a member only when
  // it is another machine.
  replaceOn: [],
  computed: ["master", "keepalived"],
  // With a member listed as down (operations/unreachable.ts), the other is expected to hold the VIPs for both: an up
  // during the outage raises it, the first up after it declares both again.
  expectedLive(inputs) {
    const pair = inputs();
    const down = (["primary", "backup"] as const).find((role) => knownDown(pair[role].connection));
    return { keepalived: expectedKeepalived(pair, down) };
  },
  async apply(inputs, actor, previous) {
    return { ...(await applyHaPair(inputs, actor, previous)) };
  },
  async read(inputs, recorded) {
    const live = await readHaPair(inputs, recorded);
    return live && { ...live };
  },
  remove: (inputs, actor) => removeHaPair(inputs, actor),
};
