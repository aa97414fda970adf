#!/usr/bin/env bash
# Runs short headless plays of the launchad binary under valgrind --leak-check=full and reports
# the leaks left once the libraries' one-time allocations (scripts/leak-check.supp) are set
# aside. Exits 1 when any definite or indirect leak remains, printing its stack.
#
#   scripts/leak-check.sh [BINARY]      default: .build/debug/launchad (built if missing)
#
# Plays: a video with sound, a PNG ad, a broken video falling back to the PNG, and a probe;
# then an HTML validation report (pictures taken during the pass) and a two-device preview.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
bin="${1:-.build/debug/launchad}"
if [ ! -x "$bin" ]; then swift build >/dev/null; fi
command -v valgrind >/dev/null || { echo "leak-check: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ff() { ffmpeg -nostdin -y -hide_banner -loglevel error "$@"; }
ff -f lavfi -i testsrc=s=160x120:r=25:d=0.5 -f lavfi -i sine=d=0.5 -c:v libx264 -pix_fmt yuv420p -c:a aac -shortest "$work/clip.mp4"
ff -f lavfi -i testsrc=s=160x120 -frames:v 1 "$work/ad.png"
head -c 3000 "$work/clip.mp4" > "$work/broken.mp4"

export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
unset DISPLAY WAYLAND_DISPLAY
status=0
run() {
  local name=$1; shift
  local log="$work/$name.log"
  local start=$SECONDS
  valgrind --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
    --suppressions=scripts/leak-check.supp --num-callers=40 --error-exitcode=99 \
    "$bin" "$@" >/dev/null 2>"$log" && rc=0 || rc=$?
  local definite indirect suppressed
  definite=$(grep -oP 'definitely lost: \K[0-9,]+ bytes in [0-9,]+ blocks' "$log" || echo "0 bytes in 0 blocks")
  indirect=$(grep -oP 'indirectly lost: \K[0-9,]+ bytes in [0-9,]+ blocks' "$log" || echo "0 bytes in 0 blocks")
  suppressed=$(grep -oP 'suppressed: \K[0-9,]+ bytes in [0-9,]+ blocks' "$log" || echo "0 bytes in 0 blocks")
  printf '%-10s definitely lost: %-24s indirectly lost: %-24s suppressed (libraries): %s  [%ss]\n' \
    "$name" "$definite" "$indirect" "$suppressed" $(( SECONDS - start ))
  if [ "$rc" = 99 ]; then
    status=1
    echo "---- $name: leaks (stacks in the project's code have LaunchAd frames) ----"
    awk '/are (definitely|indirectly) lost/,/^==[0-9]+== $/' "$log" | sed 's/^==[0-9]*== //'
  elif [ "$rc" != 0 ] && [ "$rc" != 3 ] && ! { [ "$name" = html ] && [ "$rc" = 1 ]; }; then
    status=1
    echo "---- $name: exited $rc ----"; tail -20 "$log"
  fi
}
run video play "$work/clip.mp4" --transition none --size 160x120
run image play "$work/ad.png" --duration 0.3 --transition none --size 160x120
run fallback play "$work/broken.mp4" --fallback "$work/ad.png" --duration 0.3 --transition none --size 160x120
run probe probe "$work/clip.mp4"
run html validate "$work/clip.mp4" "$work/broken.mp4" --format html --output "$work/report.html"
run preview preview "$work/clip.mp4" --devices iphone-se,desktop --at 0.2 --out "$work/gallery.png"
[ $status = 0 ] && echo "leak-check: no leak in LaunchAd's code" || echo "leak-check: leaks found" >&2
exit $status
