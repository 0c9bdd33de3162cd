import { header } from "./header";
import { IPVS_FRAGMENT_DIR, IPVS_TIMEOUTS_FILE, SNAT_FRAGMENT_DIR } from "./paths";

/**
 * The director's boot replay. A fragment per entry means one that fails (already present, bad line) is reported and
 * skipped without stopping the rest; the glob order puts services (10-svc-*) before real servers (20-rs-*).
 * Globbing is off only while a rule spec is word-split (it holds only addresses and options), not for the loop's
 * own glob: a reboot test caught SNAT rules never coming back when it was off for the whole loop.
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
for f in ${SNAT_FRAGMENT_DIR}/*.rules; do
  [ -e "$f" ] || continue
  while read -r tool spec; do
    set -f
    $tool -t nat -C POSTROUTING $spec 2>/dev/null || $tool -t nat -A POSTROUTING $spec || rc=1
    set +f
  done < "$f"
done
exit $rc
`;
}
