#!/usr/bin/env bash
# Renders the lab topology into ip(8) batch files for the guest (one `ip` process per step: under emulation every
# process start is expensive, and jq at every host boot far more so):
#   OUT/bridges.batch        the VM's bridges and its jump-host addresses
#   OUT/hosts/HOST.veth      veth pairs for HOST, run in the VM (the peer lands in HOST's namespace)
#   OUT/hosts/HOST.batch     run inside HOST's namespace: links up, addresses, routes
set -euo pipefail
topology=$1
out=$2
mkdir -p "$out/hosts"

jq -r '.subnets | to_entries[] | .value as $s |
  "link add \($s.bridge) type bridge",
  "link set \($s.bridge) up",
  "addr replace \($s.jump4)/\($s.ipv4 | split("/")[1]) dev \($s.bridge)",
  (if $s.jump6 then "addr replace \($s.jump6)/\($s.ipv6 | split("/")[1]) dev \($s.bridge) nodad" else empty end)
' "$topology" >"$out/bridges.batch"

# Fixed MAC addresses, as real NICs have: after a host reboots, its neighbours' ARP caches still hold the truth.
n=0
for host in $(jq -r '.hosts | keys[]' "$topology"); do
  n=$((n + 1))
  jq -r --arg h "$host" --arg n "$(printf '%02x' "$n")" '. as $t | .hosts[$h].interfaces | to_entries[] | .key as $i | .value as $nic |
    "link add v-\($h)-\($i) type veth peer name \($nic.name) address 02:1a:b0:\($n):0\($i):01 netns \($h)",
    "link set v-\($h)-\($i) master \($t.subnets[$nic.subnet].bridge) up"
  ' "$topology" >"$out/hosts/$host.veth"
  jq -r --arg h "$host" '. as $t | .hosts[$h] as $host |
    "link set lo up",
    ($host.interfaces[] as $nic | $t.subnets[$nic.subnet] as $s |
      "link set \($nic.name) up",
      (if $nic.ipv4 then "addr add \($nic.ipv4)/\($s.ipv4 | split("/")[1]) dev \($nic.name)" else empty end),
      (if $nic.ipv6 then "addr add \($nic.ipv6)/\($s.ipv6 | split("/")[1]) dev \($nic.name) nodad" else empty end)),
    ($host.routes[] | "route add \(ltrimstr("-6 "))")
  ' "$topology" >"$out/hosts/$host.batch"
done
