#!/usr/bin/env bash
# Waits until the VM and then every lab host answers over SSH. Hosts are probed from inside the VM in one session:
# many ssh processes polling from outside would steal CPU from the emulated VM.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cfg=$LAB_STATE/ssh_config
deadline=$((SECONDS + ${LAB_BOOT_TIMEOUT:-300}))

until ssh -F "$cfg" -o ConnectTimeout=5 lab-vm true 2>/dev/null; do
  if ((SECONDS > deadline)) || ! kill -0 "$(cat "$LAB_STATE/qemu.pid")" 2>/dev/null; then
    log "the VM did not answer SSH; last console lines:"
    tail -n 30 "$LAB_STATE/console.log" >&2 || true
    exit 1
  fi
  sleep 2
done
log "VM answers SSH after $((SECONDS - deadline + ${LAB_BOOT_TIMEOUT:-300})) s"

addresses=$(jq -r '.hosts[].ssh' "$LAB_DIR/topology.json" | tr '\n' ' ')
ssh -F "$cfg" lab-vm "for i in \$(seq 1 $((deadline - SECONDS))); do
  pending=''
  for ip in $addresses; do
    timeout 2 bash -c \"exec 3<>/dev/tcp/\$ip/22 && head -c 3 <&3\" 2>/dev/null | grep -q SSH || pending=\"\$pending \$ip\"
  done
  systemctl is-active -q lab-vm.service || pending=\"\$pending lab-vm.service\"
  [ -z \"\$pending\" ] && exit 0
  sleep 1
done
echo \"no SSH from:\$pending\" >&2; systemctl --no-pager --failed >&2; exit 1"

pids=()
for host in "${LAB_HOSTS[@]}"; do
  ssh -F "$cfg" "$host" true &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
