#!/usr/bin/env bash
# npm run lab:status — is the lab up, and which hosts answer over SSH.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
pidfile=$LAB_STATE/qemu.pid
if [[ ! -f $pidfile ]] || ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
  echo "lab: down"
  exit 1
fi
echo "lab: up (qemu PID $(cat "$pidfile"), VM SSH on 127.0.0.1:$(cat "$LAB_STATE/ssh-port"))"
for host in "${LAB_HOSTS[@]}"; do
  if ssh -F "$LAB_STATE/ssh_config" -o ConnectTimeout=10 "$host" true 2>/dev/null; then echo "  $host: ssh ok"; else echo "  $host: no ssh"; fi
done
