import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { renderIpvsRestoreScript } from "../../../provider/render/ipvs-restore-script";

// The boot replay, run by a real sh against a copy of the state folder, with ipvsadm and iptables replaced by
// recorders: every fragment must be replayed, SNAT rules added unless already present. Firewall fragments are lines
// "<tool> <spec>" as every version wrote them: the script itself makes each run wait for the xtables lock (-w).
test("the director's restore script replays timeouts, every IPVS fragment, every SNAT rule and every mark rule", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "restore-ipvs-"));
  const state = path.join(dir, "etc-lvs-pulumi");
  const bin = path.join(dir, "bin");
  const calls = path.join(dir, "calls.log");
  fs.mkdirSync(path.join(state, "ipvs.d"), { recursive: true });
  fs.mkdirSync(path.join(state, "snat.d"), { recursive: true });
  fs.mkdirSync(path.join(state, "mark.d"), { recursive: true });
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(state, "ipvs-timeouts"), "900 60 120\n");
  fs.writeFileSync(path.join(state, "ipvs.d", "10-svc-a.rules"), "-A -t 198.51.100.44:80 -s rr\n");
  fs.writeFileSync(path.join(state, "ipvs.d", "20-rs-a.rules"), "-a -t 198.51.100.44:80 -r 198.51.100.21:80 -g -w 1\n");
  fs.writeFileSync(
    path.join(state, "snat.d", "a.rules"),
    "iptables -d 198.51.100.141/32 -m ipvs --vaddr 198.51.100.44/32 --vport 80 -j SNAT --to-source 198.51.100.11\n",
  );
  fs.writeFileSync(
    path.join(state, "snat.d", "b.rules"),
    "ip6tables -d 2001:db8::21/128 -m ipvs --vaddr 2001:db8:1::5/128 --vport 80 -j SNAT --to-source 2001:db8::66\n",
  );
  fs.writeFileSync(
    path.join(state, "mark.d", "fwm_7.rules"),
    "iptables -d 198.51.100.51/32 -p tcp -m tcp --dport 80 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7\n" +
      "iptables -d 198.51.100.51/32 -p tcp -m tcp --dport 8443 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7\n",
  );
  const recorder = (name: string, check: string) =>
    fs.writeFileSync(
      path.join(bin, name),
      `#!/bin/sh\n{ printf '${name}'; for a in "$@"; do printf ' %s' "$a"; done; echo; } >> ${calls}\n${check}\n`,
      { mode: 0o755 },
    );
  // ipvsadm -R reads its rules on stdin: record them too.
  recorder("ipvsadm", `cat >> ${calls}`);
  // -C (wherever it is) finds nothing, so every rule is added.
  const absent = 'for a in "$@"; do [ "$a" = -C ] && exit 1; done; exit 0';
  recorder("iptables", absent);
  recorder("ip6tables", absent);
  const script = renderIpvsRestoreScript().split("/etc/lvs-pulumi").join(state);
  execFileSync("sh", ["-c", script], { env: { PATH: `${bin}:/usr/bin:/bin` } });

  expect(fs.readFileSync(calls, "utf8")).toBe(
    [
      "ipvsadm --set 900 60 120",
      "ipvsadm -R",
      "-A -t 198.51.100.44:80 -s rr",
      "ipvsadm -R",
      "-a -t 198.51.100.44:80 -r 198.51.100.21:80 -g -w 1",
      "iptables -w -t nat -C POSTROUTING -d 198.51.100.141/32 -m ipvs --vaddr 198.51.100.44/32 --vport 80 -j SNAT --to-source 198.51.100.11",
      "iptables -w -t nat -A POSTROUTING -d 198.51.100.141/32 -m ipvs --vaddr 198.51.100.44/32 --vport 80 -j SNAT --to-source 198.51.100.11",
      "ip6tables -w -t nat -C POSTROUTING -d 2001:db8::21/128 -m ipvs --vaddr 2001:db8:1::5/128 --vport 80 -j SNAT --to-source 2001:db8::66",
      "ip6tables -w -t nat -A POSTROUTING -d 2001:db8::21/128 -m ipvs --vaddr 2001:db8:1::5/128 --vport 80 -j SNAT --to-source 2001:db8::66",
      "iptables -w -t mangle -C PREROUTING -d 198.51.100.51/32 -p tcp -m tcp --dport 80 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7",
      "iptables -w -t mangle -A PREROUTING -d 198.51.100.51/32 -p tcp -m tcp --dport 80 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7",
      "iptables -w -t mangle -C PREROUTING -d 198.51.100.51/32 -p tcp -m tcp --dport 8443 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7",
      "iptables -w -t mangle -A PREROUTING -d 198.51.100.51/32 -p tcp -m tcp --dport 8443 -m comment --comment lvs-pulumi:fwm:7 -j MARK --set-mark 7",
      "",
    ].join("\n"),
  );
  fs.rmSync(dir, { recursive: true });
});
