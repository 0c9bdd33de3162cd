import { renderKeepalivedConf, renderKeepalivedScripts } from "../../../provider/render/keepalived-conf";
import { haPairInputsSchema } from "../../../provider/schemas/ha-pair";

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
    enable_script_security
    script_user root
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

  it("take-over: the holder's new instance is address owner (master at once), without preempt settings", () => {
    for (const inputs of [pairInputs({ preempt: false }), pairInputs({ preemptDelaySeconds: 30 })]) {
      const conf = renderKeepalivedConf("pair-a", inputs, "backup", undefined, "take over");
      expect(conf).toContain("    state MASTER\n    interface eth0\n    virtual_router_id 51\n    priority 255\n");
      expect(conf).not.toMatch(/nopreempt|preempt_delay/);
      expect(renderKeepalivedConf("pair-a", inputs, "backup")).toMatch(
        /priority 100\n[\s\S]*(nopreempt|preempt_delay 30)\n/,
      );
    }
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
    expect(off).not.toContain("lvs_sync_daemon");
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

  it("track script and interfaces, notify hooks, gratuitous ARP, preempt delay and PASS authentication", () => {
    const inputs = pairInputs({
      vips: ["198.51.100.46"],
      primary: {
        connection: { host: "198.51.100.11", insecureSkipHostKeyCheck: true },
        interface: "eth0",
        trackInterfaces: ["eth2"],
      },
      trackScripts: [{ command: "test -e /run/ok", intervalSeconds: 1, timeoutSeconds: 3, fall: 3, weight: -60 }],
      notify: { master: "logger master", any: "logger any" },
      gratuitousArp: { masterDelaySeconds: 2, masterRepeat: 3, masterRefreshSeconds: 30, masterRefreshRepeat: 2 },
      preemptDelaySeconds: 20,
      authentication: { password: "s3cr:t/1" },
    });
    expect(renderKeepalivedConf("pair-a", inputs, "primary")).toBe(
      `# Managed by lvs-pulumi; edits are overwritten.
# lvs-pulumi HA pair: pair-a

global_defs {
    enable_script_security
    script_user root
    lvs_sync_daemon eth0 LVS_PULUMI_51_V4 id 51
}

vrrp_script LVS_PULUMI_51_TRACK_0 {
    script "/etc/keepalived/lvs-pulumi/track-0.sh"
    interval 1
    timeout 3
    fall 3
    rise 2
    weight -60
}

vrrp_instance LVS_PULUMI_51_V4 {
    state BACKUP
    interface eth0
    virtual_router_id 51
    priority 150
    advert_int 1
    preempt_delay 20
    garp_master_delay 2
    garp_master_repeat 3
    garp_master_refresh 30
    garp_master_refresh_repeat 2
    authentication {
        auth_type PASS
        auth_pass s3cr:t/1
    }
    track_interface {
        eth2
    }
    track_script {
        LVS_PULUMI_51_TRACK_0
    }
    notify_master "/etc/keepalived/lvs-pulumi/notify-master.sh"
    notify "/etc/keepalived/lvs-pulumi/notify-any.sh"
    virtual_ipaddress {
        198.51.100.46/32 dev eth0
    }
}
`,
    );
    // The backup tracks only what it lists itself.
    expect(renderKeepalivedConf("pair-a", inputs, "backup")).not.toContain("track_interface");
  });

  it("commands become /bin/sh scripts exactly as written: quotes, $ and keepalived's comment characters are safe", () => {
    const command = `echo "it's $1" | tee -a /run/x # ! { } \\ done`;
    const inputs = pairInputs({ trackScripts: [{ command }], notify: { fault: command } });
    expect(renderKeepalivedScripts(inputs)).toEqual([
      {
        path: "/etc/keepalived/lvs-pulumi/track-0.sh",
        content: `#!/bin/sh\n# Managed by lvs-pulumi; edits are overwritten.\n${command}\n`,
      },
      {
        path: "/etc/keepalived/lvs-pulumi/notify-fault.sh",
        content: `#!/bin/sh\n# Managed by lvs-pulumi; edits are overwritten.\n${command}\n`,
      },
    ]);
    const conf = renderKeepalivedConf("p", inputs, "primary");
    expect(conf).not.toContain("it's");
    expect(renderKeepalivedScripts(inputs, "/stage")[0].path).toBe("/stage/track-0.sh");
  });

  it("with IPv4 and IPv6 VIPs the hooks go on the sync group (once per change), the track script on both instances", () => {
    const inputs = pairInputs({
      vips: ["198.51.100.46", "2001:db8:1::104"],
      trackScripts: [{ command: "true" }],
      notify: { backup: "logger backup" },
    });
    const conf = renderKeepalivedConf("p", inputs, "primary");
    expect(conf).toContain(
      '        LVS_PULUMI_51_V6\n    }\n    notify_backup "/etc/keepalived/lvs-pulumi/notify-backup.sh"\n}\n',
    );
    expect(conf.match(/notify_backup/g)).toHaveLength(1);
    expect(conf.match(/track_script \{\n {8}LVS_PULUMI_51_TRACK_0\n/g)).toHaveLength(2);
    // The preempting primary without a delay starts as MASTER; script security also without a script of the pair's
    // own (the checked services it includes may run theirs).
    expect(conf).toContain("    state MASTER\n");
    expect(renderKeepalivedConf("p", pairInputs(), "primary")).toContain("    script_user root\n");
  });
});
