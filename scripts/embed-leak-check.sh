#!/usr/bin/env bash
# The embedding library under valgrind: repeat-host creates, prepares, presents, dismisses and
# destroys a launch ad N times (default 100) in one process, into a buffer (headless). Reports
# what is lost once the libraries' one-time allocations (scripts/leak-check.supp) are set aside,
# and exits 1 when a definite or indirect leak remains, printing its stack.
#
#   scripts/embed-leak-check.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
runs="${1:-100}"
command -v valgrind >/dev/null || { echo "embed-leak-check: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
[ -x .build/examples/repeat-host ] || bash scripts/build-examples.sh >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ffmpeg -nostdin -y -hide_banner -loglevel error -f lavfi -i testsrc=s=160x120:r=25:d=0.5 -f lavfi -i sine=d=0.5 \
  -c:v libx264 -pix_fmt yuv420p -c:a aac -shortest "$work/clip.mp4"
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
unset DISPLAY WAYLAND_DISPLAY
start=$SECONDS
valgrind --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
  --suppressions=scripts/leak-check.supp --num-callers=40 --error-exitcode=99 \
  .build/examples/repeat-host "$runs" "$work/clip.mp4" --transition none >"$work/frames.txt" 2>"$work/valgrind.log" && rc=0 || rc=$?
definite=$(grep -oP 'definitely lost: \K[0-9,]+ bytes in [0-9,]+ blocks' "$work/valgrind.log" || echo "0 bytes in 0 blocks")
indirect=$(grep -oP 'indirectly lost: \K[0-9,]+ bytes in [0-9,]+ blocks' "$work/valgrind.log" || echo "0 bytes in 0 blocks")
possibly=$(grep -oP 'possibly lost: \K[0-9,]+ bytes in [0-9,]+ blocks' "$work/valgrind.log" || echo "0 bytes in 0 blocks")
reachable=$(grep -oP 'still reachable: \K[0-9,]+ bytes in [0-9,]+ blocks' "$work/valgrind.log" || echo "0 bytes in 0 blocks")
echo "embed-leak-check: $runs ads made and destroyed in $(( SECONDS - start )) s ($(wc -l < "$work/frames.txt") first frames)"
echo "  definitely lost: $definite; indirectly lost: $indirect; possibly lost: $possibly; still reachable: $reachable"
if [ "$rc" = 99 ]; then
  echo "---- leaks ----"
  awk '/are (definitely|indirectly) lost/,/^==[0-9]+== $/' "$work/valgrind.log" | sed 's/^==[0-9]*== //'
  exit 1
elif [ "$rc" != 0 ]; then
  tail -30 "$work/valgrind.log"; echo "embed-leak-check: repeat-host exited $rc" >&2; exit 1
fi
echo "embed-leak-check: no leak"
