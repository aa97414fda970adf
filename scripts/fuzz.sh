#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ with the toolchain's -sanitize=fuzzer,address and runs
# each for a bounded time. Crashing inputs are kept in Fuzz/regressions/<target>/ (the tests in
# Tests/LaunchAdCoreTests and Tests/LaunchAdMediaTests/FuzzRegressionTests.swift replay them).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     default 60 s each; targets: manifest media vast captions
#
# Targets: manifest (LaunchAdCore's ManifestParser and RFC 3339 dates) and media (Demuxer and
# MediaProbe opening and probing any bytes, then decoding and converting a few pictures as the
# player does, and ImageLoader), vast (LaunchAdCore's VAST parser, wrapper chain checks, media
# choice, tracker and macros), captions (WebVTT, SRT and TTML parsing, cue timing, wrapping and
# placing). Seeds are in Fuzz/seeds/<target>/; the growing corpus is kept
# outside the repository in $FUZZ_WORK (default /tmp/launchad-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(manifest media vast captions)
work="${FUZZ_WORK:-/tmp/launchad-fuzz}"
build="$work/build"
mkdir -p "$build"

core_sources=$(find Sources/LaunchAdCore -name '*.swift' | sort)
media_sources=$(find Sources/LaunchAdMedia -name '*.swift' | sort)
flags=(-sanitize=fuzzer,address -parse-as-library -g)

build_target() {
  case "$1" in
    manifest)
      # The parser's own module, so the target reaches its internal helpers.
      swiftc "${flags[@]}" -module-name LaunchAdCore $core_sources Fuzz/ManifestFuzz.swift -o "$build/fuzz-manifest" ;;
    vast)
      swiftc "${flags[@]}" -module-name LaunchAdCore $core_sources Fuzz/VASTFuzz.swift -o "$build/fuzz-vast" ;;
    captions)
      swiftc "${flags[@]}" -module-name LaunchAdCore $core_sources Fuzz/CaptionFuzz.swift -o "$build/fuzz-captions" ;;
    media)
      swiftc "${flags[@]}" -module-name LaunchAdCore -emit-library -static -emit-module \
        -emit-module-path "$build/LaunchAdCore.swiftmodule" -o "$build/libLaunchAdCore.a" $core_sources
      swiftc "${flags[@]}" -module-name LaunchAdMedia -I "$build" -I Sources/CFFmpeg -I Sources/CLazyLoad -L "$build" -lLaunchAdCore \
        $media_sources Tests/LaunchAdMediaTests/MediaExercise.swift Fuzz/MediaFuzz.swift -o "$build/fuzz-media" ;;
    *) echo "fuzz: unknown target $1 (manifest, media, vast, captions)" >&2; exit 2 ;;
  esac
}

declare -A max_len=([manifest]=16384 [media]=65536 [vast]=16384 [captions]=16384)
status=0
for t in "${targets[@]}"; do
  echo "fuzz: building $t" >&2
  build_target "$t" >"$work/$t.build.log" 2>&1 || { grep -E "error" "$work/$t.build.log" >&2; exit 1; }
  corpus="$work/corpus/$t"
  regressions="Fuzz/regressions/$t"
  mkdir -p "$corpus" "$regressions"
  before=$(ls "$regressions" | wc -l)
  log="$work/$t.log"
  dict=()
  [ -f "Fuzz/$t.dict" ] && dict=(-dict="Fuzz/$t.dict")
  # FoundationXML leaks a small CFError for every malformed document (its bug, not ours):
  # leak reports (counted as crashes in fork mode) would bury the real ones.
  asan="${ASAN_OPTIONS:-}"
  [ "$t" = vast ] || [ "$t" = captions ] && { dict+=(-detect_leaks=0); asan="detect_leaks=0"; }
  echo "fuzz: running $t for ${seconds}s" >&2
  # -fork keeps fuzzing after a crash (each is saved); -ignore_crashes lets the run reach its time.
  ASAN_OPTIONS="$asan" "$build/fuzz-$t" "$corpus" "Fuzz/seeds/$t" "${dict[@]}" -max_total_time="$seconds" -max_len="${max_len[$t]}" \
    -timeout=10 -rss_limit_mb=2048 -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -artifact_prefix="$regressions/" -print_final_stats=1 >"$log" 2>&1 || true
  found=$(( $(ls "$regressions" | wc -l) - before ))
  # Fork mode's status lines: "#EXECS: cov: N ft: N corp: N exec/s: N oom/timeout/crash: a/b/c time: Ts".
  last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1 || true)
  execs=$(sed -nE 's/^#([0-9]+):.*/\1/p' <<<"$last")
  cov=$(sed -nE 's/.* cov: ([0-9]+) .*/\1/p' <<<"$last")
  faults=$(sed -nE 's|.*oom/timeout/crash: ([0-9/]+) .*|\1|p' <<<"$last")
  printf 'fuzz: %-8s %ss  %s executions  coverage %s edges  corpus %s inputs  oom/timeout/crash %s  new files in %s: %s\n' \
    "$t" "$seconds" "${execs:-?}" "${cov:-?}" "$(ls "$corpus" | wc -l)" "${faults:-?}" "$regressions" "$found"
  if [ "$found" -gt 0 ]; then
    status=1
    ls -1 "$regressions" | tail -n "$found" | sed "s|^|  $regressions/|"
  fi
done
exit $status
