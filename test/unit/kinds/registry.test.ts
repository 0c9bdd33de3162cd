import { KINDS, kindOf, ResourceKind } from "../../../provider/kinds/registry";
import { directorInputsSchema } from "../../../provider/schemas/director";
import { haPairInputsSchema } from "../../../provider/schemas/ha-pair";
import { realServerInputsSchema } from "../../../provider/schemas/real-server";
import { virtualServiceInputsSchema } from "../../../provider/schemas/virtual-service";

test("the registry holds exactly the four resource kinds, each checked by its own schema", () => {
  const schemas: Record<ResourceKind, unknown> = {
    director: directorInputsSchema(),
    virtualService: virtualServiceInputsSchema(),
    realServer: realServerInputsSchema(),
    haPair: haPairInputsSchema(),
  };
  expect(Object.keys(KINDS).sort()).toEqual(Object.keys(schemas).sort());
  for (const name of Object.keys(schemas) as ResourceKind[]) {
    expect(kindOf(name)).toBe(KINDS[name]);
    expect(kindOf(name).schema()).toBe(schemas[name]);
  }
});

test("only the kinds whose entry lives in the IPVS table have an entry key and can adopt one", () => {
  const withEntry = (Object.keys(KINDS) as ResourceKind[]).filter((name) => kindOf(name).entryKey !== undefined);
  expect(withEntry.sort()).toEqual(["realServer", "virtualService"]);
  const adopting = (Object.keys(KINDS) as ResourceKind[]).filter((name) => kindOf(name).adopts !== undefined);
  expect(adopting.sort()).toEqual(["realServer", "virtualService"]);
});
