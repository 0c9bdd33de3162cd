import { renderModulesLoad } from "../../../provider/render/modules-load";
import { renderSysctlConf } from "../../../provider/render/sysctl-conf";

test("modules-load.d file", () => {
  expect(renderModulesLoad(["ip_vs", "ip_vs_wlc", "ip_vs"])).toBe(
    "# Managed by lvs-pulumi; edits are overwritten.\nip_vs\nip_vs_wlc\n",
  );
});

test("sysctl.d file, keys sorted", () => {
  expect(renderSysctlConf({ "net.ipv4.vs.expire_nodest_conn": "1", "net.ipv4.ip_forward": "1" })).toBe(
    "# Managed by lvs-pulumi; edits are overwritten.\nnet.ipv4.ip_forward = 1\nnet.ipv4.vs.expire_nodest_conn = 1\n",
  );
});
