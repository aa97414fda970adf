#!/usr/bin/env bash
# Runs the whole XCTest suite in shards side by side, each a process of the test bundle of its
# own with its own watchdog (scripts/test-watchdog.sh), and writes every shard's lines into LOG
# as they come. Most tests wait on something real (an ad playing for its length, a server, a
# window manager): on two cores three shards finish in about the time of the longest.
#   scripts/test-shards.sh LOG [SHARDS]      (SHARDS: default $LAUNCHAD_TEST_SHARDS, else 3)
# Classes are shared out by the seconds each took last time it was measured
# (scripts/test-times.tsv, made by `scripts/test-times.sh LOG` from a run's log; a class it
# does not know counts 2 s a test); a class in scripts/test-alone.txt runs in a process of its own.
# Exit status: 0 when every shard's bundle exited 0.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
log=$1
shards=${2:-${LAUNCHAD_TEST_SHARDS:-3}}
bundle=$(swift build --show-bin-path)/LaunchAdPackageTests.xctest
[ -x "$bundle" ] || { echo "test-shards: no test bundle at $bundle (swift build --build-tests first)" >&2; exit 1; }
plan=$(mktemp)
trap 'rm -f "$plan"' EXIT
swift test --skip-build list 2>/dev/null | python3 scripts/test-shards.py "$shards" scripts/test-times.tsv scripts/test-alone.txt >"$plan"
[ -s "$plan" ] || { echo "test-shards: no tests listed" >&2; exit 1; }
pids=() watchdogs=() logs=()
i=0
while IFS= read -r classes; do
  i=$((i + 1))
  shard_log="$log.$i"
  : >"$shard_log"
  # Run as a job of a script, the bundle would inherit SIGINT and SIGQUIT ignored (what a shell
  # does for a job in the background), and SIGHUP ignored under nohup; the tests that send them
  # to their processes need them at their defaults (launchad keeps a signal it inherits ignored,
  # as nohup means). Line-buffered, so the watchdog sees progress.
  env --default-signal=INT,QUIT,HUP,TERM stdbuf -oL -eL "$bundle" "$classes" >>"$shard_log" 2>&1 &
  pids+=($!)
  logs+=("$shard_log")
  bash scripts/test-watchdog.sh "$!" "$shard_log" "${LAUNCHAD_TEST_SILENCE_LIMIT:-240}" &
  watchdogs+=($!)
done <"$plan"
echo "test-shards: $i shards ($(wc -w <<<"$(tr ',' ' ' <"$plan")") classes) from $bundle" >&2
# Every shard's lines as they come, whole lines only.
tail -q -n +1 -F "${logs[@]}" 2>/dev/null &
tail_pid=$!
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
for w in "${watchdogs[@]}"; do kill "$w" 2>/dev/null; wait "$w" 2>/dev/null; done
sleep 0.2
kill "$tail_pid" 2>/dev/null
wait "$tail_pid" 2>/dev/null
cat "${logs[@]}" >>"$log"
rm -f "${logs[@]}"
grep -q "^test: no output for" "$log" && status=1
exit "$status"
