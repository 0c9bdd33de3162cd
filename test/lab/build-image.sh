#!/usr/bin/env bash
# Builds the lab VM image (kernel + initramfs with systemd, IPVS tools, keepalived) into the cache.
# Prints the image folder. A cached image with the same key is reused as it is.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ensure_host_tools
out=$(image_dir)
if [[ -f $out/initramfs.cpio && -f $out/vmlinuz ]]; then
  echo "$out"
  exit 0
fi

started=$SECONDS
work=$(mktemp -d "$LAB_CACHE/build.XXXXXX" 2>/dev/null || { mkdir -p "$LAB_CACHE" && mktemp -d "$LAB_CACHE/build.XXXXXX"; })
trap 'rm -rf "$work"' EXIT
root=$work/root
mirror=$(grep -hoE '^URIs: *\S+' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1 | awk '{print $2}')
mirror=${mirror:-http://deb.debian.org/debian}

# The Debian base tree changes only with the package list: cached on its own, so guest changes rebuild in seconds.
base=$LAB_CACHE/base/$(echo "$LAB_GUEST_PACKAGES" | sha256sum | cut -c1-16).tar
if [[ ! -f $base ]]; then
  log "building rootfs from $mirror (about 90 s)"
  mkdir -p "$LAB_CACHE/base"
  INITRD=No mmdebstrap --variant=minbase --mode=root --quiet \
    --include="$LAB_GUEST_PACKAGES" \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    bookworm "$work/base.tar" "$mirror" >&2
  mv "$work/base.tar" "$base"
fi
mkdir -p "$root"
tar -xf "$base" -C "$root"

log "configuring the guest"
kver=$(ls "$root/lib/modules" | sort -V | tail -n1)
cp "$root/boot/vmlinuz-$kver" "$work/vmlinuz"
rm -rf "$root/boot"/* "$root/var/cache/apt"/* "$root/var/lib/apt/lists"/*
# Only the module trees the lab needs: networking, netfilter/IPVS, virtio, overlay.
(
  cd "$root/lib/modules/$kver/kernel"
  find . -mindepth 1 -maxdepth 1 ! -name net ! -name drivers ! -name fs ! -name lib ! -name crypto ! -name arch -exec rm -rf {} +
  find drivers -mindepth 1 -maxdepth 1 ! -name net ! -name virtio ! -name block -exec rm -rf {} +
  find drivers/net -mindepth 1 -maxdepth 1 ! -name virtio_net.ko* ! -name veth.ko* ! -name dummy.ko* ! -name net_failover.ko* ! -name macvlan.ko* -exec rm -rf {} +
  find fs -mindepth 1 -maxdepth 1 ! -name overlayfs ! -name ext4 ! -name jbd2 ! -name mbcache.ko* -exec rm -rf {} +
  rm -rf net/wireless net/mac80211 net/bluetooth
)
chroot "$root" depmod "$kver"

# Guest files: network/topology scripts, units, container settings.
install -m 0755 "$LAB_DIR/guest/lab-vm" "$root/usr/local/sbin/lab-vm"
install -m 0755 "$LAB_DIR/guest/lab-host" "$root/usr/local/sbin/lab-host"
install -D -m 0644 "$LAB_DIR/topology.json" "$root/etc/lab/topology.json"
bash "$LAB_DIR/render-guest-net.sh" "$LAB_DIR/topology.json" "$root/etc/lab/net"
install -m 0644 "$LAB_DIR/guest/lab-vm.service" "$root/etc/systemd/system/lab-vm.service"
install -m 0644 "$LAB_DIR/guest/lab-httpd@.service" "$root/etc/systemd/system/lab-httpd@.service"
install -D -m 0644 "$LAB_DIR/guest/nspawn-override.conf" "$root/etc/systemd/system/systemd-nspawn@.service.d/lab.conf"
ln -sf /etc/systemd/system/lab-vm.service "$root/etc/systemd/system/multi-user.target.wants/lab-vm.service"

# Speed under emulation: no generators, and none of the services a lab host does not need (see the lab notes).
mkdir -p "$root/etc/systemd/system-generators"
for g in "$root"/lib/systemd/system-generators/*; do ln -sf /dev/null "$root/etc/systemd/system-generators/$(basename "$g")"; done
for unit in systemd-logind.service systemd-update-utmp.service systemd-update-utmp-runlevel.service ldconfig.service \
  systemd-hwdb-update.service systemd-sysusers.service systemd-remount-fs.service systemd-udevd.service \
  systemd-udev-trigger.service systemd-udev-settle.service systemd-udevd-control.socket systemd-udevd-kernel.socket \
  systemd-journal-flush.service systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer \
  e2scrub_reap.service fstrim.timer getty@tty1.service serial-getty@ttyS0.service console-getty.service \
  systemd-firstboot.service systemd-machine-id-commit.service systemd-random-seed.service keepalived.service \
  ipvsadm.service dbus.service dbus.socket dev-hugepages.mount sys-kernel-debug.mount sys-kernel-tracing.mount \
  systemd-tmpfiles-setup-dev.service kmod-static-nodes.service; do
  ln -sf /dev/null "$root/etc/systemd/system/$unit"
done
# keepalived is masked in the image only so the hosts start clean; the product unmasks it where it owns it.
rm -f "$root/etc/systemd/system/keepalived.service"
rm -f "$root/etc/systemd/system/multi-user.target.wants/keepalived.service"
ln -sf /lib/systemd/system/multi-user.target "$root/etc/systemd/system/default.target"
mkdir -p "$root/etc/systemd/system.conf.d"
printf '[Manager]\nShowStatus=no\nDefaultTimeoutStartSec=30s\n' >"$root/etc/systemd/system.conf.d/lab.conf"
printf '[Journal]\nStorage=volatile\nRuntimeMaxUse=8M\n' >"$root/etc/systemd/journald.conf"

# SSH: key-only root login; each host gets its own host key from its disk, the VM keeps the image's.
rm -f "$root"/etc/ssh/ssh_host_*
ssh-keygen -q -t ed25519 -N '' -C lab-vm -f "$root/etc/ssh/ssh_host_ed25519_key"
ssh-keygen -q -t ed25519 -N '' -C lvs-pulumi-lab -f "$work/id_ed25519"
install -d -m 0700 "$root/root/.ssh"
install -m 0600 "$work/id_ed25519.pub" "$root/root/.ssh/authorized_keys"
# The non-root user (sudo comes per host from up.sh): its own key, which the tests hold only in an ssh-agent.
chroot "$root" useradd --create-home --shell /bin/bash "$LAB_SUDO_USER"
ssh-keygen -q -t ed25519 -N '' -C "$LAB_SUDO_USER@lvs-pulumi-lab" -f "$work/id_sudo_user"
[[ $(chroot "$root" id -u "$LAB_SUDO_USER") == 1000 ]] # the owner below, by number: the build machine may lack the name
install -d -m 0700 -o 1000 -g 1000 "$root/home/$LAB_SUDO_USER/.ssh"
install -m 0600 -o 1000 -g 1000 "$work/id_sudo_user.pub" "$root/home/$LAB_SUDO_USER/.ssh/authorized_keys"
cat >"$root/etc/ssh/sshd_config.d/lab.conf" <<'CONF'
HostKey /etc/ssh/ssh_host_ed25519_key
PermitRootLogin prohibit-password
PasswordAuthentication no
UseDNS no
CONF
# MaxSessions and MaxStartups stay at OpenSSH's defaults (10, 10:30:100), as on the hosts and bastions users have:
# a provider that opens too many channels or connections at once must fail here first.
# Socket-activated sshd: a host answers SSH as soon as its socket listens, without waiting for sshd to start.
rm -f "$root/etc/systemd/system/multi-user.target.wants/ssh.service" "$root/etc/systemd/system/sshd.service"
mkdir -p "$root/etc/systemd/system/sockets.target.wants"
ln -sf /lib/systemd/system/ssh.socket "$root/etc/systemd/system/sockets.target.wants/ssh.socket"
echo lab >"$root/etc/hostname"
: >"$root/etc/machine-id"
ln -sf /lib/systemd/systemd "$root/init"

log "packing the initramfs"
(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) >"$work/initramfs.cpio"
cp "$root/etc/ssh/ssh_host_ed25519_key.pub" "$work/vm-host-key.pub"
ssh-keygen -lf "$work/vm-host-key.pub" | awk '{print $2}' >"$work/vm-host-key.fingerprint"
mkdir -p "$out"
mv "$work/vmlinuz" "$work/initramfs.cpio" "$work/id_ed25519" "$work/id_ed25519.pub" "$work/id_sudo_user" "$work/vm-host-key.fingerprint" "$work/vm-host-key.pub" "$out/"
echo "$kver" >"$out/kernel-release"
log "image built in $((SECONDS - started)) s: $out"
echo "$out"
