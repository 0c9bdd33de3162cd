#!/usr/bin/env bash
# npm run lab:down — stops what lab:up started, by PID file only, and removes the lab's runtime state.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# SSH control masters first (they would otherwise linger until their idle timeout).
if [[ -f $LAB_STATE/ssh_config ]]; then
  for sock in "$LAB_STATE"/ctl-*; do
    [[ -S $sock ]] || continue
    ssh -F "$LAB_STATE/ssh_config" -o ControlPath="$sock" -O exit lab-vm >/dev/null 2>&1 || true
  done
fi
pidfile=$LAB_STATE/qemu.pid
if [[ -f $pidfile ]]; then
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
    log "stopped qemu (PID $pid)"
  fi
  rm -f "$pidfile"
fi
rm -rf "$LAB_STATE"
