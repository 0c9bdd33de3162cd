#!/usr/bin/env bash
# npm run lab:exec -- HOST COMMAND... — runs a command on a lab host (or on the VM itself: lab-vm).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
if (($# < 2)); then
  echo "usage: npm run lab:exec -- <host> <command...>  (hosts: lab-vm ${LAB_HOSTS[*]})" >&2
  exit 2
fi
host=$1
shift
exec ssh -F "$LAB_STATE/ssh_config" "$host" "$@"
