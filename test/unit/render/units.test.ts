import { renderIpvsUnit, renderRealServerUnit } from "../../../provider/render/units";

test("lvs-pulumi-ipvs.service", () => {
  expect(renderIpvsUnit()).toBe(`# Managed by lvs-pulumi; edits are overwritten.
[Unit]
Description=lvs-pulumi: restore owned IPVS entries and fullnat SNAT rules
Wants=network-online.target
After=network-online.target systemd-modules-load.service systemd-sysctl.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/lib/lvs-pulumi/restore-ipvs.sh

[Install]
WantedBy=multi-user.target
`);
});

test("lvs-pulumi-realserver.service", () => {
  expect(renderRealServerUnit()).toContain("Description=lvs-pulumi: restore real server VIPs and return routes\n");
  expect(renderRealServerUnit()).toContain("ExecStart=/usr/local/lib/lvs-pulumi/restore-realserver.sh\n");
});
