#!/usr/bin/env bash
# First command on a fresh machine (README): system packages, npm packages, the lab image. Idempotent; run as root.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

apt-get update -qq

# OpenSSH server binary for test/unit/remote/openssh.test.ts, which starts its own
# sshd on 127.0.0.1:<random port>. A policy-rc.d that exits 101 stops apt from starting
# a system sshd on port 22; install one only for the duration of this install.
if [ ! -x /usr/sbin/sshd ]; then
  created_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    created_policy=1
  fi
  apt-get install -y -qq --no-install-recommends openssh-server openssh-client >/dev/null
  if [ "$created_policy" = 1 ]; then rm -f /usr/sbin/policy-rc.d; fi
fi

npm ci --no-audit --no-fund

# qemu, mmdebstrap and friends, then the lab image (cached outside the tree; a warm cache makes this instant).
bash test/lab/build-image.sh >/dev/null
