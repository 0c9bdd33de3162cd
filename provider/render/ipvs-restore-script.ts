import { XTABLES_WAIT } from "../model/iptables";
import { header } from "./header";
import { IPVS_FRAGMENT_DIR, IPVS_TIMEOUTS_FILE, MARK_FRAGMENT_DIR, SNAT_FRAGMENT_DIR } from "../model/host-paths";

/**
 * The director's boot replay. A fragment per entry means one that fails (already present, bad line) is reported and
 * skipped without stopping the rest; the glob order puts services (10-svc-*) before real servers (20-rs-*).
 * Globbing is off only while a rule spec is word-split (it holds only addresses and options), not for the loop's
 * own glob: a reboot test caught SNAT rules never coming back when it was off for the whole loop. Firewall rules
 * (fullnat SNAT, fwmark marks) are files of lines "<iptables|ip6tables> <spec>", each added unless `-C` finds it;
 * the script adds the lock wait when it runs the tool, so lines written before it had one replay with it too.
 */
export function renderIpvsRestoreScript(): string {
  return `#!/bin/sh
${header()}set -u
rc=0
if [ -s ${IPVS_TIMEOUTS_FILE} ]; then
  ipvsadm --set $(cat ${IPVS_TIMEOUTS_FILE}) || rc=1
fi
for f in ${IPVS_FRAGMENT_DIR}/*.rules; do
  [ -e "$f" ] || continue
  ipvsadm -R < "$f" || { echo "lvs-pulumi: $f failed" >&2; rc=1; }
done
replay_rules() { # <folder> <table> <chain>
  for f in "$1"/*.rules; do
    [ -e "$f" ] || continue
    while read -r tool spec; do
      set -f
      $tool ${XTABLES_WAIT} -t "$2" -C "$3" $spec 2>/dev/null || $tool ${XTABLES_WAIT} -t "$2" -A "$3" $spec || rc=1
      set +f
    done < "$f"
  done
}
replay_rules ${SNAT_FRAGMENT_DIR} nat POSTROUTING
replay_rules ${MARK_FRAGMENT_DIR} mangle PREROUTING
exit $rc
`;
}
