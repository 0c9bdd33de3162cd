#!/usr/bin/env bash
# `npm test`: typecheck, lint, unit tests, then the lab-backed end-to-end tests (the lab is booted and always
# stopped again, also when a test fails). Prints the lab's share of the run.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
trap 'bash test/lab/down.sh' EXIT

npm run --silent typecheck
npm run --silent lint
npm run --silent build
npx jest --selectProjects unit
e2e_started=$SECONDS
bash test/lab/bench.sh
npx jest --selectProjects e2e --runInBand
echo "timing: total $((SECONDS - started)) s, lab-backed tests $((SECONDS - e2e_started)) s"
