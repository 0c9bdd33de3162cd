import { renderModulesLoad } from "../../../provider/render/modules-load";
import { header } from "../../../provider/render/header";

test("modules-load.d file", () => {
  expect(renderModulesLoad(["ip_vs", "ip_vs_wlc", "ip_vs"])).toBe(
    "# Managed by lvs-pulumi; edits are overwritten.\nip_vs\nip_vs_wlc\n",
  );
});

test("modules keep the order given, a repeated one its first place", () => {
  expect(renderModulesLoad(["ip_vs_sh", "ip_vs", "ip_vs_sh", "nf_conntrack"])).toBe(
    `${header()}ip_vs_sh\nip_vs\nnf_conntrack\n`,
  );
});

test("no modules: only the header", () => {
  expect(renderModulesLoad([])).toBe(header());
});
