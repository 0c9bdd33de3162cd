#!/usr/bin/env bash
# Renders the lab topology into plain ip(8) command files for the guest (jq under emulation is far too slow to run
# at every host boot): OUT/bridges.sh for the VM and OUT/hosts/HOST.sh for each host's network namespace.
set -euo pipefail
topology=$1
out=$2
mkdir -p "$out/hosts"

jq -r '.subnets | to_entries[] | .value as $s |
  "ip link add \($s.bridge) type bridge 2>/dev/null || true",
  "ip link set \($s.bridge) up",
  "ip addr replace \($s.jump4)/\($s.ipv4 | split("/")[1]) dev \($s.bridge)",
  (if $s.jump6 then "ip addr replace \($s.jump6)/\($s.ipv6 | split("/")[1]) dev \($s.bridge) nodad" else empty end)
' "$topology" >"$out/bridges.sh"

for host in $(jq -r '.hosts | keys[]' "$topology"); do
  jq -r --arg h "$host" '. as $t | .hosts[$h] as $host |
    "ip -n \($h) link set lo up",
    ($host.interfaces | to_entries[] | .key as $i | .value as $nic | $t.subnets[$nic.subnet] as $s |
      "ip link add v-\($h)-\($i) type veth peer name \($nic.name) netns \($h)",
      "ip link set v-\($h)-\($i) master \($s.bridge) up",
      "ip -n \($h) link set \($nic.name) up",
      (if $nic.ipv4 then "ip -n \($h) addr add \($nic.ipv4)/\($s.ipv4 | split("/")[1]) dev \($nic.name)" else empty end),
      (if $nic.ipv6 then "ip -n \($h) addr add \($nic.ipv6)/\($s.ipv6 | split("/")[1]) dev \($nic.name) nodad" else empty end)),
    ($host.routes[] | if startswith("-6 ") then "ip -n \($h) -6 route add \(.[3:])" else "ip -n \($h) route add \(.)" end)
  ' "$topology" >"$out/hosts/$host.sh"
done
