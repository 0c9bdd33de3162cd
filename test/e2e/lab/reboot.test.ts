// A reboot of a lab host has real semantics: kernel network state and processes gone, disk kept, units run again.
import { labExec, labRun, rebootHost } from "../../lab/lab";

describe("lab host reboot", () => {
  test("hand-set sysctl and address are gone, /etc is kept, an enabled unit ran at boot", async () => {
    const host = "rs2";
    await labExec(host, "sysctl -qw net.ipv4.conf.all.arp_ignore=1 && ip addr add 198.51.100.49/32 dev lo");
    await labExec(
      host,
      `printf 'persisted\\n' > /etc/lab-reboot-proof
       printf '[Unit]\\nDescription=lab proof\\n[Service]\\nType=oneshot\\nExecStart=/bin/sh -c "date +%%s > /run/lab-proof-ran"\\n[Install]\\nWantedBy=multi-user.target\\n' > /etc/systemd/system/lab-proof.service
       systemctl enable lab-proof.service 2>/dev/null`,
    );
    const ms = await rebootHost(host);
    console.log(`lab-timing: reboot of ${host} to SSH took ${(ms / 1000).toFixed(1)} s`);

    expect((await labExec(host, "sysctl -n net.ipv4.conf.all.arp_ignore")).trim()).toBe("0");
    expect(await labExec(host, "ip -4 -o addr show dev lo")).not.toContain("198.51.100.49");
    expect((await labExec(host, "cat /etc/lab-reboot-proof")).trim()).toBe("persisted");
    expect((await labRun(host, "cat /run/lab-proof-ran")).code).toBe(0);
    // Its HTTP server (an enabled unit of the host itself) is back too.
    expect((await labExec("client", "curl -s -m 3 http://198.51.100.22/")).trim()).toBe(host);

    await labExec(
      host,
      "systemctl disable lab-proof.service 2>/dev/null; rm -f /etc/systemd/system/lab-proof.service /etc/lab-reboot-proof",
    );
  });
});
