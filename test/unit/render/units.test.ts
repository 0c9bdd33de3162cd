import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { renderIpvsUnit, renderKeepalivedDropIn, renderRealServerUnit } from "../../../provider/render/units";

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

describe("boot order on a director (VIPs only once the table is back)", () => {
  test("the VIPs' replay runs after the IPVS table's", () => {
    expect(renderRealServerUnit()).toMatch(/^After=.* lvs-pulumi-ipvs\.service$/m);
  });

  test("with checked services keepalived keeps their IPVS entries when it stops; without, its own behaviour", () => {
    expect(renderKeepalivedDropIn(true)).toContain(
      "\nExecStart=\nExecStart=/usr/sbin/keepalived --dont-fork --dont-release-ipvs $DAEMON_ARGS\n",
    );
    expect(renderKeepalivedDropIn(false)).not.toContain("ExecStart=");
  });

  test("keepalived waits for the replay, and does not start (takes no VIP) when the replay failed", () => {
    const dropIn = renderKeepalivedDropIn(false);
    expect(dropIn).toMatch(/^After=lvs-pulumi-ipvs\.service$/m);
    // Not pulled in: a keepalived start during an apply must not replay entries that are live.
    expect(dropIn).not.toMatch(/^(Wants|Requires)=/m);
    const guard = /^ExecStartPre=(.*)$/m.exec(dropIn)?.[1];
    expect(guard).toBeDefined();
    // Run the guard as systemd would, with a systemctl that reports the replay unit's state.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "units-"));
    const runGuard = (state: string) => {
      fs.writeFileSync(
        path.join(dir, "systemctl"),
        `#!/bin/sh\n[ "$*" = "is-failed --quiet lvs-pulumi-ipvs.service" ] && [ ${state} = failed ]\n`,
        { mode: 0o755 },
      );
      return spawnSync("sh", ["-c", guard!], { env: { PATH: `${dir}:/usr/bin:/bin` }, encoding: "utf8" });
    };
    const failed = runGuard("failed");
    expect(failed.status).not.toBe(0);
    expect(failed.stderr).toContain("lvs-pulumi-ipvs.service failed");
    expect(runGuard("active").status).toBe(0);
    expect(runGuard("inactive").status).toBe(0); // no table to replay (no service yet): keepalived runs
    fs.rmSync(dir, { recursive: true });
  });
});
