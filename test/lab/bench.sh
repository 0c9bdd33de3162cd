#!/usr/bin/env bash
# Measures the lab's two start-up figures: the first lab:up (builds the image unless cached) and a second lab:up
# after lab:down (image from cache: boot to SSH on every host). Leaves the lab up for the tests that follow.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bash "$LAB_DIR/down.sh"
t0=$SECONDS
bash "$LAB_DIR/up.sh"
first=$((SECONDS - t0))
bash "$LAB_DIR/down.sh"
t1=$SECONDS
bash "$LAB_DIR/up.sh"
second=$((SECONDS - t1))
echo "lab-bench: first lab:up ${first} s (includes the image build when the cache was cold), second lab:up ${second} s from cache (target < 90 s)"
