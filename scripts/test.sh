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
# The suite mostly waits (ads play for their length, servers and window managers answer): what
# else CI runs goes beside it, at low priority, its output kept for the end. Style and public API
# documentation (swift-format, DocC); in CI also the engine, player and launch-flow tests under
# ThreadSanitizer (their own build) and the binary the package ships (release, Swift runtime
# linked in), tried after (scripts/static-smoke.sh).
side_log=$(mktemp)
trap 'rm -f "$log" "$side_log" "$side_log".*' EXIT
nice -n 5 bash scripts/lint.sh >"$side_log.lint" 2>&1 &
lint_pid=$!
tsan_pid="" static_pid=""
if [ "${CI:-}" = "true" ] && [ $# -eq 0 ]; then
  nice -n 10 bash scripts/tsan.sh >"$side_log.tsan" 2>&1 &
  tsan_pid=$!
  nice -n 10 bash scripts/static-smoke.sh --build-only >"$side_log.static" 2>&1 &
  static_pid=$!
fi
set +e
: >"$log"
suite_began=$(date +%s)
if [ $# -eq 0 ]; then
  # The whole suite: shards side by side, each watched (scripts/test-shards.sh).
  bash scripts/test-shards.sh "$log"
  status=$?
else
  # Line-buffered (XCTest's output to a pipe is otherwise written in 4 KB blocks), and watched: a
  # test that hangs ends the run within minutes, named, with its stacks (scripts/test-watchdog.sh).
  env --default-signal=INT,QUIT,HUP,TERM stdbuf -oL -eL swift test --skip-build --disable-swift-testing "$@" >>"$log" 2>&1 &
  test_pid=$!
  bash scripts/test-watchdog.sh "$test_pid" "$log" "${LAUNCHAD_TEST_SILENCE_LIMIT:-240}" &
  watchdog_pid=$!
  tail -n +1 -f --pid="$test_pid" "$log"
  wait "$test_pid"
  status=$?
  kill "$watchdog_pid" 2>/dev/null
  wait "$watchdog_pid" 2>/dev/null
  grep -q "^test: no output for" "$log" && [ "$status" -eq 0 ] && status=1
fi
suite_seconds=$(($(date +%s) - suite_began))
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
# What ran beside the suite, said before the closing lines.
lint_status=0
wait "$lint_pid" || lint_status=$?
cat "$side_log.lint" >&2
tsan_status=0
if [ -n "$tsan_pid" ]; then
  wait "$tsan_pid" || tsan_status=$?
  cat "$side_log.tsan" >&2
fi
static_status=0
if [ -n "$static_pid" ]; then
  wait "$static_pid" || static_status=$?
  cat "$side_log.static" >&2
  [ "$static_status" -eq 0 ] && { bash scripts/static-smoke.sh --check-only >&2 || static_status=$?; }
  [ "$static_status" -ne 0 ] && echo "test: the static binary's smoke test failed" >&2
fi
[ "$lint_status" -ne 0 ] && echo "test: scripts/lint.sh failed (style or API documentation)" >&2
if [ "$tsan_status" -ne 0 ]; then
  cat .build/tsan/report.txt >&2 2>/dev/null || true
  echo "test: the ThreadSanitizer run failed" >&2
fi
# One plain closing line with the counts over every test case of the whole run; a test the
# watchdog stopped (or whose process died) counts as failed, named (scripts/test-counts.sh).
closing=$(bash scripts/test-counts.sh "$log")
case "$closing" in *" 0 failed,"*) ;; *) [ "$status" -eq 0 ] && status=1 ;; esac
for side in "$static_status" "$lint_status" "$tsan_status"; do [ "$status" -eq 0 ] && [ "$side" -ne 0 ] && status=1; done
echo "$closing (the suite: $suite_seconds s)"
exit "$status"
