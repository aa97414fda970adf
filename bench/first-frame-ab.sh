#!/usr/bin/env bash
# Two launchad binaries, A and B (e.g. the dynamic release build and the package's static one),
# alternating under one Xvfb: N runs each of `play CLIP --max-duration 1` on a 1080p30 clip,
# reporting the median and every run of the first frame (the `first_frame` event's t_ms, ms since
# process start) and of `--version`'s wall time.
#
#   bash bench/first-frame-ab.sh A_BIN B_BIN [--runs N] [--out DIR] [--clip FILE]
#
# Runs from a fresh checkout: the clip (10 s of testsrc2 and a tone, as the play bench's; needs
# ffmpeg and Xvfb) is made into --out DIR, kept there for the next run, or into a temporary
# folder removed at the end; nothing is written into the tree. --clip plays FILE instead.
# --runs defaults to 15.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
die() { echo "bench: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: bash bench/first-frame-ab.sh A_BIN B_BIN [--runs N] [--out DIR] [--clip FILE]"
a="$1" b="$2" runs=15 out="" clip=""
shift 2
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --clip) clip="${2:?--clip needs a file}"; shift 2 ;;
    *) die "unknown option $1 (usage: A_BIN B_BIN [--runs N] [--out DIR] [--clip FILE])" ;;
  esac
done
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "--runs wants a positive number, not '$runs'"
for bin in "$a" "$b"; do [ -x "$bin" ] || die "no launchad binary at $bin"; done
command -v Xvfb >/dev/null || die "missing Xvfb (apt install xvfb)"

work=$(mktemp -d)
if [ -z "$clip" ]; then
  if [ -n "$out" ]; then mkdir -p "$out" || die "cannot make --out $out"; fi
  clip="${out:-$work}/clip-1080p30-h264-aac.mp4"
  # shellcheck source=bench/lib-clip.sh
  . "$here/lib-clip.sh"
  bench_clip "$clip" 1920x1080 || { rm -rf "$work"; die "cannot make $clip"; }
fi
[ -s "$clip" ] || { rm -rf "$work"; die "no clip at $clip"; }
display=":$((200 + RANDOM % 500))"
Xvfb "$display" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done
[ -e "/tmp/.X11-unix/X${display#:}" ] || die "Xvfb did not start on $display"

# One run: the first_frame t_ms of a 1 s play, then --version's wall time in ms.
one() {
  DISPLAY="$display" SDL_AUDIODRIVER=dummy "$1" play "$clip" --max-duration 1 --events "$work/events" >/dev/null 2>&1 \
    || die "$1 play failed"
  sed -n 's/.*"event":"first_frame","t_ms":\([0-9]*\).*/\1/p' "$work/events" | head -n 1
  local t0 t1
  t0=$(date +%s%N); "$1" --version >/dev/null; t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000000))
}
declare -A first=() version=()
one "$a" >/dev/null; one "$b" >/dev/null   # warm-up: page cache, fonts
for i in $(seq "$runs"); do
  for label in A B; do
    bin=$a; [ $label = B ] && bin=$b
    mapfile -t r < <(one "$bin")
    [ -n "${r[0]}" ] || die "$bin: no first_frame event"
    first[$label]+="${r[0]} "; version[$label]+="${r[1]} "
  done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "| binary | first frame median ms | --version median ms | first frame, every run |"
echo "|---|---|---|---|"
echo "| A $a | $(median <<<"${first[A]}") | $(median <<<"${version[A]}") | ${first[A]}|"
echo "| B $b | $(median <<<"${first[B]}") | $(median <<<"${version[B]}") | ${first[B]}|"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); $runs runs each, alternating"
