#!/usr/bin/env bash
# `npm test`: typecheck, lint, unit tests, then the lab-backed end-to-end tests (the labs are booted and always
# stopped again, also when a test fails). Prints the lab's share of the run.
#
# The lab-backed suites run in two labs at once (two VMs, each its own copy of every host, so no suite can meet
# another's changes): most of a suite's time is waiting on timers (VRRP, checks, drains), and two lanes measured
# 310 s of wall time for 471 s of suites run one after the other (ha-pair beside fwmark + drain).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
e2e_started=
# The lab always goes down, pass or fail, and the figures are printed either way.
lanes=(.lab .lab-2)
finish() {
  for lane in "${lanes[@]}"; do LVS_LAB_STATE=$PWD/$lane bash test/lab/down.sh; done
  echo "timing: total $((SECONDS - started)) s${e2e_started:+, lab-backed part (lab boots + e2e) $((SECONDS - e2e_started)) s}"
}
trap finish EXIT

# The provider process loads `lvs-pulumi/runtime` through node_modules/lvs-pulumi -> .. (an `npm install` of another
# package prunes that link; `npm ci` and this put it back).
node scripts/link-self.js
npm run --silent typecheck
npm run --silent lint
npm run --silent build
# --forceExit: a handle a failed test leaves open must fail the run, not hang it until CI's deadline (stop 35).
npx jest --selectProjects unit --forceExit
e2e_started=$SECONDS
bash test/lab/bench.sh
# Each lane: its own lab (booted by the e2e project's global setup; the first is up already) and its half of the
# suites, its lines prefixed with its name. Both run to the end; the run fails if either failed.
pids=()
for i in "${!lanes[@]}"; do
  lane=${lanes[$i]}
  (
    set -o pipefail
    LVS_LAB_STATE=$PWD/$lane npx jest --selectProjects e2e --runInBand --forceExit --shard="$((i + 1))/${#lanes[@]}" 2>&1 |
      sed -u "s/^/[$lane] /"
  ) &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
exit "$failed"
