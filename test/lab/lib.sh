# Shared settings of the lab scripts (sourced, not run).
LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$LAB_DIR/../.." && pwd)
# Built artifacts live outside the tracked tree so that a fresh clone reuses them.
LAB_CACHE=${LVS_LAB_CACHE:-/var/cache/lvs-pulumi-lab}
# Runtime state of the running lab (PID file, disk, keys, descriptions) is per checkout and git-ignored.
LAB_STATE=${LVS_LAB_STATE:-$REPO_DIR/.lab}
LAB_HOST_TOOLS=(qemu-system-x86 ipxe-qemu mmdebstrap zstd cpio e2fsprogs openssh-client jq)
LAB_GUEST_PACKAGES=linux-image-amd64,systemd,systemd-sysv,systemd-container,openssh-server,ipvsadm,iputils-arping,keepalived,iproute2,kmod,procps,busybox,curl,iptables,nftables,iputils-ping,jq,util-linux,sudo
LAB_HOSTS=(client router dir1 dir2 rs1 rs2 nrs1 nrs2 trs1)
# The non-root login of real deployments: key-only, with passwordless sudo on the directors and real servers only.
LAB_SUDO_USER=lvs

log() { printf '[lab %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

ensure_host_tools() {
  local missing=()
  for pkg in "${LAB_HOST_TOOLS[@]}"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  if ((${#missing[@]})); then
    log "installing host tools: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

# The image is keyed by everything that shapes it: the package list and the guest files.
image_key() {
  {
    echo "$LAB_GUEST_PACKAGES"
    cat "$LAB_DIR/build-image.sh" "$LAB_DIR/render-guest-net.sh" "$LAB_DIR/topology.json"
    find "$LAB_DIR/guest" -type f | sort | xargs cat
  } | sha256sum | cut -c1-16
}

image_dir() { echo "$LAB_CACHE/images/$(image_key)"; }
