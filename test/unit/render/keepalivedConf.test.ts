import { renderKeepalivedConf } from "../../../provider/render/keepalivedConf";
import { haPairInputsSchema } from "../../../provider/schemas/haPair";

export function pairInputs(overrides: Record<string, unknown> = {}) {
  return haPairInputsSchema().parse({
    primary: { connection: { host: "198.51.100.11", insecureSkipHostKeyCheck: true }, interface: "eth0" },
    backup: { connection: { host: "198.51.100.12", insecureSkipHostKeyCheck: true }, interface: "eth0" },
    virtualRouterId: 51,
    vips: ["198.51.100.46", { address: "198.51.100.68", interface: "eth1" }],
    ...overrides,
  });
}

describe("keepalived.conf", () => {
  it("primary: MASTER with its priority, VIPs as host addresses on their interfaces, sync daemon on the VRRP link", () => {
    expect(renderKeepalivedConf("pair-a", pairInputs(), "primary")).toBe(
      `# Managed by lvs-pulumi; edits are overwritten.
# lvs-pulumi HA pair: pair-a

global_defs {
    lvs_sync_daemon eth0 LVS_PULUMI_51_V4 id 51
}

vrrp_instance LVS_PULUMI_51_V4 {
    state MASTER
    interface eth0
    virtual_router_id 51
    priority 150
    advert_int 1
    virtual_ipaddress {
        198.51.100.46/32 dev eth0
        198.51.100.68/32 dev eth1
    }
}
`,
    );
  });

  it("backup: BACKUP with the lower priority", () => {
    const conf = renderKeepalivedConf("pair-a", pairInputs(), "backup");
    expect(conf).toContain("    state BACKUP\n    interface eth0\n    virtual_router_id 51\n    priority 100\n");
  });

  it("IPv6 VIPs get their own VRRPv3 instance, tied to the IPv4 one by a sync group", () => {
    const conf = renderKeepalivedConf("p", pairInputs({ vips: ["198.51.100.46", "2001:db8:1::104"] }), "primary");
    expect(conf).toContain(
      "vrrp_sync_group LVS_PULUMI_51 {\n    group {\n        LVS_PULUMI_51_V4\n        LVS_PULUMI_51_V6\n",
    );
    expect(conf).toContain(
      "vrrp_instance LVS_PULUMI_51_V6 {\n    state MASTER\n    interface eth0\n    virtual_router_id 51\n" +
        "    priority 150\n    advert_int 1\n    version 3\n    virtual_ipaddress {\n        2001:db8:1::104/128 dev eth0\n",
    );
  });

  it("without preemption both start as BACKUP with nopreempt; sync can move or be off", () => {
    const inputs = pairInputs({ preempt: false, connectionSync: { interface: "eth1", syncId: 7 } });
    const conf = renderKeepalivedConf("p", inputs, "primary");
    expect(conf).toContain("    state BACKUP\n");
    expect(conf).toContain("    nopreempt\n");
    expect(conf).toContain("lvs_sync_daemon eth1 LVS_PULUMI_51_V4 id 7\n");
    const off = renderKeepalivedConf("p", pairInputs({ connectionSync: { enabled: false } }), "primary");
    expect(off).not.toContain("global_defs");
  });

  it("unicast: adverts go to the peer's address of the instance's family, and only the peer's are heard", () => {
    const inputs = pairInputs({
      vips: ["198.51.100.46", "2001:db8:1::104"],
      primary: {
        connection: { host: "10.0.0.1", insecureSkipHostKeyCheck: true },
        interface: "eth0",
        addresses: ["198.51.100.11", "2001:db8:1::11"],
      },
      backup: {
        connection: { host: "10.0.0.2", insecureSkipHostKeyCheck: true },
        interface: "eth0",
        addresses: ["2001:db8:1::12", "198.51.100.12"],
      },
    });
    const backup = renderKeepalivedConf("p", inputs, "backup");
    expect(backup).toContain(
      "    unicast_src_ip 198.51.100.12\n    unicast_peer {\n        198.51.100.11\n    }\n    check_unicast_src\n",
    );
    expect(backup).toContain(
      "    unicast_src_ip 2001:db8:1::12\n    unicast_peer {\n        2001:db8:1::11\n    }\n    check_unicast_src\n",
    );
    expect(renderKeepalivedConf("p", pairInputs(), "primary")).not.toContain("unicast");
  });
});
