import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import {
  renderCheckerUnit,
  renderIpvsUnit,
  renderKeepalivedDropIn,
  renderRealServerUnit,
} from "../../../provider/render/units";

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

  test("an HA pair's keepalived runs VRRP only; the checked services' keepalived runs checks only and keeps its entries", () => {
    expect(renderKeepalivedDropIn()).toContain(
      "\nExecStart=\nExecStart=/usr/sbin/keepalived --dont-fork --vrrp $DAEMON_ARGS\n",
    );
    const checker = renderCheckerUnit();
    expect(checker).toMatch(/^ExecStart=\/usr\/sbin\/keepalived --dont-fork --check --dont-release-ipvs /m);
    expect(checker).toContain(" --use-file=/etc/keepalived/lvs-pulumi-checker.conf ");
    // Its own pid files: the distribution's keepalived (an HA pair's) refuses to start beside one using its own.
    expect(checker).toContain(
      " --pid=/run/lvs-pulumi-checker.pid --checkers_pid=/run/lvs-pulumi-checker-checkers.pid\n",
    );
    // It holds no VIP: unlike the pair's, it runs also when the replay failed (ordered after it, not refused).
    expect(checker).toMatch(/^After=.* lvs-pulumi-ipvs\.service$/m);
    expect(checker).not.toContain("ExecStartPre");
  });

  test("keepalived waits for the replay, and does not start (takes no VIP) when the replay failed", () => {
    const dropIn = renderKeepalivedDropIn();
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
