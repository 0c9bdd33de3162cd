#!/usr/bin/env bash
# Writes the machine-readable description of the running lab: .lab/hosts.json (each host's SSH connection as the
# provider takes it, role and addresses), .lab/topology.json (subnets, free VIPs, DIPs) and .lab/ssh_config.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
port=$(cat "$LAB_STATE/ssh-port")
vm_fp=$(cat "$(image_dir)/vm-host-key.fingerprint")
key=$LAB_STATE/id_ed25519
topology=$LAB_DIR/topology.json

echo "lab-vm $(cut -d' ' -f1-2 "$(image_dir)/vm-host-key.pub")" >>"$LAB_STATE/known_hosts"

jq -n --arg port "$port" --arg key "$key" --arg vmfp "$vm_fp" --slurpfile topo "$topology" \
  --arg sudoUser "$LAB_SUDO_USER" --arg sudoKey "$LAB_STATE/id_sudo_user" \
  --argjson fps "$(for h in "${LAB_HOSTS[@]}"; do printf '{"%s":"%s"}' "$h" "$(cat "$LAB_STATE/seed/$h.fingerprint")"; done | jq -s add)" '
  ($topo[0]) as $t |
  { host: "127.0.0.1", port: ($port|tonumber), user: "root", privateKeyPath: $key, hostKey: $vmfp } as $jump |
  { jump: $jump,
    sudoUser: { user: $sudoUser, privateKeyPath: $sudoKey },
    hosts: ($t.hosts | with_entries(.value = {
      role: .value.role,
      connection: { host: .value.ssh, port: 22, user: "root", privateKeyPath: $key, hostKey: $fps[.key], proxy: $jump },
      interfaces: .value.interfaces
    })) }' >"$LAB_STATE/hosts.json"

jq '{ subnets: .subnets, freeVips: .freeVips,
      directors: (.hosts | with_entries(select(.value.role == "director")) | map_values({
        dip: { lan: (.interfaces[] | select(.subnet == "lan") | .ipv4), nat: (.interfaces[] | select(.subnet == "nat") | .ipv4) },
        dip6: (.interfaces[] | select(.subnet == "lan") | .ipv6) })),
      routerAddresses: (.hosts.router.interfaces | map({ (.subnet): .ipv4 }) | add) }' "$topology" >"$LAB_STATE/topology.json"

{
  cat <<CONF
Host lab-vm
  HostName 127.0.0.1
  Port $port
  HostKeyAlias lab-vm
Host *
  User root
  IdentityFile $key
  IdentitiesOnly yes
  UserKnownHostsFile $LAB_STATE/known_hosts
  StrictHostKeyChecking yes
  BatchMode yes
  LogLevel ERROR
  ConnectTimeout 20
  ServerAliveInterval 5
  ControlMaster auto
  ControlPath $LAB_STATE/ctl-%C
  ControlPersist 600
CONF
  for h in "${LAB_HOSTS[@]}"; do
    printf 'Host %s\n  HostName %s\n  ProxyJump lab-vm\n' "$h" "$(jq -r ".hosts[\"$h\"].ssh" "$topology")"
  done
} >"$LAB_STATE/ssh_config.tmp"
# Host * must come last for ssh's first-match rule.
awk 'BEGIN{RS="Host ";ORS=""} NR>1{ if ($1=="*") star="Host " $0; else print "Host " $0 } END{print star}' \
  "$LAB_STATE/ssh_config.tmp" >"$LAB_STATE/ssh_config"
rm "$LAB_STATE/ssh_config.tmp"
