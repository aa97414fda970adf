#!/usr/bin/env bash
# The binary the package ships, built and tried: a release build with the Swift runtime linked in
# (--static-swift-stdlib, scratch .build/static, as scripts/package.sh builds it), then run as a
# user would on a machine without Swift: it loads nothing from /opt/swift, says its version,
# probes and validates the sample ad, and plays it headless to its `end`, a missing file to its
# `error` and `end` (exit 3). CI runs the build beside the test suite and the checks after it.
#
#   bash scripts/static-smoke.sh [--build-only | --check-only]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
phase=${1:-all}
bin=.build/static/release/launchad
fail() { echo "static-smoke: $*" >&2; exit 1; }
if [ "$phase" != --check-only ]; then
  began=$(date +%s)
  log=$(mktemp)
  swift build -c release --static-swift-stdlib --scratch-path .build/static --product launchad >"$log" 2>&1 \
    || { grep -E "error:" "$log" >&2 || tail -n 30 "$log" >&2; rm -f "$log"; fail "the static release build failed"; }
  rm -f "$log"
  echo "static-smoke: built $bin in $(( $(date +%s) - began )) s" >&2
fi
[ "$phase" = --build-only ] && exit 0
[ -x "$bin" ] || fail "no $bin (run without --check-only)"
# Run where /opt/swift is out of reach, as on a kiosk.
env=(env -i PATH=/usr/bin:/bin HOME="$(mktemp -d)" SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy)
if ldd "$bin" | grep -q /opt/swift; then fail "$bin loads libraries from /opt/swift"; fi
version=$(sed -n 's/.*static let versionString = "\([^"]*\)".*/\1/p' Sources/LaunchAdCore/Version.swift)
"${env[@]}" "$bin" --version | head -1 | grep -q "^launchad $version " || fail "--version does not say $version"
"${env[@]}" "$bin" probe Media/sample-ad.mp4 | grep -q '"width"' || fail "probe gave no facts"
"${env[@]}" "$bin" validate Media/sample-ad.mp4 >/dev/null || fail "validate failed on the sample ad"
out=$("${env[@]}" "$bin" play Media/sample-ad.mp4 --max-duration 1 --transition none) || fail "play exited $?"
echo "$out" | tail -n 1 | grep -q '"event":"end","t_ms":[0-9]*,"outcome":"capped"' || fail "play did not end capped: $(echo "$out" | tail -n 1)"
set +e
missing=$("${env[@]}" "$bin" play /nonexistent/ad.mp4)
status=$?
set -e
[ "$status" -eq 3 ] && echo "$missing" | tail -n 1 | grep -q '"outcome":"no_ad"' || fail "a missing file: exit $status, $missing"
echo "static-smoke: $bin ($(du -h "$bin" | cut -f1)) --version, probe, validate and play work without /opt/swift" >&2
