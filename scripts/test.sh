#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, runs every test.
# CI runs this (through .ci/run) as root on a clean clone, with no display and no sound card.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
bash scripts/setup.sh --test
# Most tests use SDL's headless drivers; the window tests start their own Xvfb and openbox.
export SDL_AUDIODRIVER=dummy
swift build --build-tests 2>&1 | grep -E "error:|warning: unre" >&2 || true
exec swift test --skip-build "$@"
