#!/usr/bin/env bash
# Builds the tests with ThreadSanitizer (its own build folder, .build/tsan) and runs the engine,
# player and launch-flow tests under it. Prints the tests run, the races found and the minutes
# taken; exits 1 if any data race is reported (or a test fails). The races' reports (and any
# failing test's lines) are also kept in .build/tsan/report.txt, which scripts/test.sh prints
# again at the end of CI's log.
# Extra arguments replace the default test filter.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
bash scripts/setup.sh --test
export SDL_AUDIODRIVER=dummy SDL_VIDEODRIVER=dummy
# halt_on_error=0: report every race of the run, not only the first. SDL's and FFmpeg's own
# threads are not instrumented (system libraries), so only races in our Swift code can show.
export TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
filter=${1:-'LockedTests|EngineStopTests|PlaybackTests|FocusPauseTests|OverlayInputTests|ImageLayoutTests|ImageDecodeOffMainTests|LaunchFlowTests|PrefetchTests|CacheTests|ControlChannelTests'}
began=$(date +%s)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
report=.build/tsan/report.txt
mkdir -p .build/tsan && rm -f "$report"
# The sanitized tests are built as a package of their own holding only the test files they run:
# with the whole suite's 190 test classes, XCTest naming them all at start-up made the Swift
# runtime's type-name cache grow a step further, and ThreadSanitizer's allocator failed its own
# CHECK (sanitizer_allocator_secondary.h:297) freeing the old table, before any test ran.
pkg=.build/tsan-package
rm -rf "$pkg" && mkdir -p "$pkg/Tests"
for item in *; do
  case "$item" in Package.swift|Tests) ;; *) ln -s "$PWD/$item" "$pkg/$item" ;; esac
done
ln -s "$PWD/Tests/LaunchAdPlayerTests" "$PWD/Tests/LaunchAdDeliveryTests" "$pkg/Tests/"
mkdir -p "$pkg/Tests/LaunchAdCoreTests" "$pkg/Tests/LaunchAdCLITests"
ln -s "$PWD/Tests/LaunchAdCoreTests/LockedTests.swift" "$pkg/Tests/LaunchAdCoreTests/"
# LaunchNginxTests.swift holds the ad servers the launch flow tests talk to.
ln -s "$PWD/Tests/LaunchAdCLITests/LaunchFlowTests.swift" "$PWD/Tests/LaunchAdCLITests/ControlChannelTests.swift" \
  "$PWD/Tests/LaunchAdCLITests/LaunchNginxTests.swift" "$pkg/Tests/LaunchAdCLITests/"
python3 - "$pkg/Package.swift" <<'PY'
import re, sys
s = open("Package.swift").read()
# The test targets this run does not need, and the corpus folders it does not have.
s = re.sub(r'\n\s*\.testTarget\(\s*name: "LaunchAdKitTests".*?\]\),', "", s, flags=re.S)
s = re.sub(r'\n\s*\.testTarget\(name: "LaunchAdMediaTests"[^\n]*', "", s)
s = s.replace(',\n                    // Caption files read from the source tree at test time (Fixtures.repoRoot), not bundled.\n                    exclude: ["Corpus"]', '')
s = s.replace(',\n                    // Tag files read from the source tree at test time (Fixtures.repoRoot), not bundled.\n                    exclude: ["Corpus"]', '')
open(sys.argv[1], "w").write(s)
PY
grep -q LaunchAdKitTests "$pkg/Package.swift" && { echo "tsan: could not leave the Kit tests out of $pkg/Package.swift" >&2; exit 1; }
if ! swift build --build-tests --sanitize=thread --package-path "$pkg" --scratch-path .build/tsan >"$log" 2>&1; then
  { grep -E "error:" "$log" || tail -n 30 "$log"; echo "tsan: the build failed"; } >"$report"
  cat "$report" >&2
  exit 1
fi
set +e
swift test --skip-build --sanitize=thread --package-path "$pkg" --scratch-path .build/tsan --disable-swift-testing --filter "$filter" >"$log" 2>&1
status=$?
set -e
# Swift access races and C data races alike ("WARNING: ThreadSanitizer: ...").
races=$(grep -c "WARNING: ThreadSanitizer:" "$log" || true)
summary=$(grep -E "Executed [0-9]+ tests?, with [0-9]+ failures?" "$log" | tail -n 1 \
          | sed -E 's/.*Executed ([0-9]+) tests?, with ([0-9]+) failures?.*/\1 tests run, \2 failing/' || true)
minutes=$(awk -v s="$(( $(date +%s) - began ))" 'BEGIN { printf "%.1f", s / 60 }')
{ grep -A30 "WARNING: ThreadSanitizer" "$log" | head -n 200 || true
  grep -E "error: |' failed \(" "$log" | head -n 40 || true
  echo "tsan: ${summary:-no test summary}; races found: $races; $minutes min"; } >"$report"
cat "$report" >&2
[ "$status" -eq 0 ] && [ "$races" -eq 0 ]
