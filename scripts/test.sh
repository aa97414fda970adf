#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, runs every test.
# CI runs this (through .ci/run) as root on a clean clone, with no display and no sound card.
# Extra arguments go to `swift test` (e.g. --filter PlaybackTests).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
bash scripts/setup.sh --test
# Most tests use SDL's headless drivers; the window test starts its own Xvfb and openbox.
export SDL_AUDIODRIVER=dummy
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! swift build --build-tests >"$log" 2>&1; then
  grep -E "error:" "$log" >&2 || cat "$log" >&2
  echo "test: the build failed" >&2
  exit 1
fi
# Style and public API documentation (swift-format, DocC): reported now, failing the run at the end.
lint_status=0
bash scripts/lint.sh || lint_status=$?
# CI also runs the engine, player and launch-flow tests under ThreadSanitizer (its own build,
# about 3 minutes here), before the suite so that the suite's counts are the closing lines.
tsan_status=0
if [ "${CI:-}" = "true" ] && [ $# -eq 0 ]; then
  bash scripts/tsan.sh || tsan_status=$?
fi
# CI also builds the binary the package ships (release, Swift runtime linked in) beside the suite,
# at low priority, and tries it after (scripts/static-smoke.sh).
static_pid=""
if [ "${CI:-}" = "true" ] && [ $# -eq 0 ]; then
  static_log=$(mktemp)
  nice -n 10 bash scripts/static-smoke.sh --build-only >"$static_log" 2>&1 &
  static_pid=$!
fi
set +e
# Line-buffered (XCTest's output to a pipe is otherwise written in 4 KB blocks), and watched: a
# test that hangs ends the run within minutes, named, with its stacks (scripts/test-watchdog.sh).
: >"$log"
stdbuf -oL -eL swift test --skip-build --disable-swift-testing "$@" >>"$log" 2>&1 &
test_pid=$!
bash scripts/test-watchdog.sh "$test_pid" "$log" "${LAUNCHAD_TEST_SILENCE_LIMIT:-240}" &
watchdog_pid=$!
tail -n +1 -f --pid="$test_pid" "$log"
wait "$test_pid"
status=$?
kill "$watchdog_pid" 2>/dev/null
wait "$watchdog_pid" 2>/dev/null
grep -q "^test: no output for" "$log" && [ "$status" -eq 0 ] && status=1
set -e
skipped=$(grep -cE "^Test Case '[^']+' skipped \(" "$log" || true)
# A skip is a test that did not run. In CI only a reason the CI machine cannot have is accepted
# (LaunchAdTestSupport's `EnvironmentSkip`, whose reasons start with "environment:"); any other
# skip (a compositor that timed out, a mount that failed) fails the run, named.
if [ "${CI:-}" = "true" ] && [ "$skipped" -gt 0 ]; then
  unexpected=$(grep -E ": Test skipped - " "$log" | grep -v ": Test skipped - environment:" || true)
  if [ -n "$unexpected" ]; then
    echo "test: skipped in CI without an environment reason:" >&2
    printf '%s\n' "$unexpected" >&2
    [ "$status" -eq 0 ] && status=1
  fi
fi
# One plain closing line with the counts over every test case of the whole run; a test the
# watchdog stopped (or whose process died) counts as failed, named (scripts/test-counts.sh).
closing=$(bash scripts/test-counts.sh "$log")
case "$closing" in *" 0 failed,"*) ;; *) [ "$status" -eq 0 ] && status=1 ;; esac
echo "$closing"
static_status=0
if [ -n "$static_pid" ]; then
  wait "$static_pid" || static_status=$?
  cat "$static_log" >&2
  [ "$static_status" -eq 0 ] && { bash scripts/static-smoke.sh --check-only || static_status=$?; }
  [ "$status" -eq 0 ] && [ "$static_status" -ne 0 ] && { echo "test: the static binary's smoke test failed" >&2; status=1; }
fi
[ "$status" -eq 0 ] && [ "$lint_status" -ne 0 ] && { echo "test: scripts/lint.sh failed (style or API documentation)" >&2; status=1; }
if [ "$tsan_status" -ne 0 ]; then
  # Again here, so that the race is in the log's tail, not only before the suite's output.
  cat .build/tsan/report.txt >&2 2>/dev/null || true
  echo "test: the ThreadSanitizer run failed" >&2
  [ "$status" -eq 0 ] && status=$tsan_status
fi
exit "$status"
