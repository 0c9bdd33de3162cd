#!/usr/bin/env bash
# `npm test`: typecheck, lint, unit tests, then the lab-backed end-to-end tests (the lab is booted and always
# stopped again, also when a test fails). Prints the lab's share of the run.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
e2e_started=
# The lab always goes down, pass or fail, and the figures are printed either way.
finish() {
  bash test/lab/down.sh
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
npx jest --selectProjects e2e --runInBand --forceExit
