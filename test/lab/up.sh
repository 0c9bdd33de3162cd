#!/usr/bin/env bash
# npm run lab:up — builds the image if the cache lacks it, boots the VM, waits for SSH on every lab host and
# writes .lab/hosts.json, .lab/topology.json and .lab/ssh_config. Prints the time to build and the time to boot.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

if [[ -f $LAB_STATE/qemu.pid ]] && kill -0 "$(cat "$LAB_STATE/qemu.pid")" 2>/dev/null; then
  log "lab already running (PID $(cat "$LAB_STATE/qemu.pid")); 'npm run lab:down' first to start clean"
  exit 0
fi

t0=$SECONDS
image=$(bash "$LAB_DIR/build-image.sh")
build_s=$((SECONDS - t0))
t1=$SECONDS

rm -rf "$LAB_STATE"
mkdir -p "$LAB_STATE"
chmod 700 "$LAB_STATE"
cp "$image/id_ed25519" "$LAB_STATE/id_ed25519"
cp "$image/id_sudo_user" "$LAB_STATE/id_sudo_user"
chmod 600 "$LAB_STATE/id_ed25519" "$LAB_STATE/id_sudo_user"

# Each host's disk folder: its own host key and the few files that make it what it is. Everything else,
# from sysctls to VIPs, is left for the product to configure.
seed=$LAB_STATE/seed
: >"$LAB_STATE/known_hosts"
for host in "${LAB_HOSTS[@]}"; do
  upper=$seed/$host/upper
  mkdir -p "$upper/etc/ssh" "$seed/$host/work"
  echo "$host" >"$upper/etc/hostname"
  printf '127.0.0.1 localhost\n127.0.1.1 %s\n' "$host" >"$upper/etc/hosts"
  ssh-keygen -q -t ed25519 -N '' -C "$host" -f "$upper/etc/ssh/ssh_host_ed25519_key"
  role=$(jq -r ".hosts[\"$host\"].role" "$LAB_DIR/topology.json")
  case $role in
    director | real-server-*)
      mkdir -p "$upper/etc/sudoers.d"
      echo "$LAB_SUDO_USER ALL=(root) NOPASSWD: ALL" >"$upper/etc/sudoers.d/lab-$LAB_SUDO_USER"
      chmod 0440 "$upper/etc/sudoers.d/lab-$LAB_SUDO_USER"
      ;;
  esac
  case $role in
    real-server-*)
      mkdir -p "$upper/srv/www" "$upper/etc/systemd/system/multi-user.target.wants"
      echo "$host" >"$upper/srv/www/index.html"
      # 80 for every service; 8443 as the second port of a fwmark service grouping ports.
      for port in 80 8443; do
        ln -s /etc/systemd/system/lab-httpd@.service "$upper/etc/systemd/system/multi-user.target.wants/lab-httpd@$port.service"
      done
      ;;
    router)
      mkdir -p "$upper/etc/sysctl.d"
      printf 'net.ipv4.ip_forward = 1\nnet.ipv6.conf.all.forwarding = 1\n' >"$upper/etc/sysctl.d/10-lab-router.conf"
      ;;
  esac
  ssh_ip=$(jq -r ".hosts[\"$host\"].ssh" "$LAB_DIR/topology.json")
  echo "$ssh_ip $(cut -d' ' -f1-2 "$upper/etc/ssh/ssh_host_ed25519_key.pub")" >>"$LAB_STATE/known_hosts"
  ssh-keygen -lf "$upper/etc/ssh/ssh_host_ed25519_key.pub" | awk '{print $2}' >"$seed/$host.fingerprint"
done
mkfs.ext4 -q -F -L labdisk -d "$seed" "$LAB_STATE/disk.img" 1G

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
echo "$port" >"$LAB_STATE/ssh-port"

log "booting the VM (SSH forwarded on 127.0.0.1:$port only; the guest reaches nothing outside)"
qemu-system-x86_64 -machine q35 -accel tcg,thread=multi -cpu max -smp 2 -m 2048 \
  -kernel "$image/vmlinuz" -initrd "$image/initramfs.cpio" \
  -append 'console=ttyS0 rdinit=/init panic=-1 quiet systemd.show_status=0 net.ifnames=0' \
  -drive "file=$LAB_STATE/disk.img,format=raw,if=virtio,cache=unsafe" \
  -nic "user,model=virtio-net-pci,restrict=on,net=203.0.113.224/27,host=203.0.113.225,dhcpstart=203.0.113.238,hostfwd=tcp:127.0.0.1:$port-203.0.113.238:22" \
  -display none -serial "file:$LAB_STATE/console.log" -daemonize -pidfile "$LAB_STATE/qemu.pid"

bash "$LAB_DIR/describe.sh"
bash "$LAB_DIR/wait-ready.sh"
boot_s=$((SECONDS - t1))
log "lab up: image ${build_s} s (0 when cached), boot to SSH on every host ${boot_s} s"
echo "lab-timing build_seconds=$build_s boot_seconds=$boot_s" >>"$LAB_STATE/timing.log"
