// Every resource kind by the name its Pulumi resources pass to the runtime (resources/provider.ts).
import { directorKind } from "./director/policy";
import { haPairKind } from "./ha-pair/policy";
import { Kind, Props } from "./kind";
import { realServerKind } from "./real-server/policy";
import { virtualServiceKind } from "./virtual-service/policy";

export const KINDS = {
  director: directorKind,
  virtualService: virtualServiceKind,
  realServer: realServerKind,
  haPair: haPairKind,
} satisfies Record<string, Kind<Props>>;

export type ResourceKind = keyof typeof KINDS;

export function kindOf(name: ResourceKind): Kind<Props> {
  return KINDS[name];
}
