import { renderIpvsRestoreScript } from "../../../provider/render/ipvsRestoreScript";

test("director restore script", () => {
  expect(renderIpvsRestoreScript()).toBe(`#!/bin/sh
# Managed by lvs-pulumi; edits are overwritten.
set -u
rc=0
if [ -s /etc/lvs-pulumi/ipvs-timeouts ]; then
  ipvsadm --set $(cat /etc/lvs-pulumi/ipvs-timeouts) || rc=1
fi
for f in /etc/lvs-pulumi/ipvs.d/*.rules; do
  [ -e "$f" ] || continue
  ipvsadm -R < "$f" || { echo "lvs-pulumi: $f failed" >&2; rc=1; }
done
set -f
for f in /etc/lvs-pulumi/snat.d/*.rules; do
  [ -e "$f" ] || continue
  while read -r tool spec; do
    $tool -t nat -C POSTROUTING $spec 2>/dev/null || $tool -t nat -A POSTROUTING $spec || rc=1
  done < "$f"
done
exit $rc
`);
});
