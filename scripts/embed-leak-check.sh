#!/usr/bin/env bash
# The embedding library under valgrind, headless, in two runs:
#   - buffer: repeat-host creates, prepares, presents, dismisses and destroys a launch ad N times
#     (default 100) in one process, into a buffer;
#   - GL: gl-host plays an ad to its end GL_N times (default 10) in one EGL context (Mesa's
#     surfaceless platform, softpipe: no JIT code for valgrind to follow), each one let go of the
#     context at its first frame and attached again (launchad_detach_gl, launchad_attach_gl), so
#     every GL object is made twice and deleted twice per ad.
# Reports what is lost once the libraries' one-time allocations (scripts/leak-check.supp) are set
# aside, and exits 1 when a definite or indirect leak remains, printing its stack.
#
#   scripts/embed-leak-check.sh [N] [GL_N]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
runs="${1:-100}"
gl_runs="${2:-10}"
command -v valgrind >/dev/null || { echo "embed-leak-check: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
[ -x .build/examples/repeat-host ] && [ -x .build/examples/gl-host ] || bash scripts/build-examples.sh >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ffmpeg -nostdin -y -hide_banner -loglevel error -f lavfi -i testsrc=s=160x120:r=25:d=0.5 -f lavfi -i sine=d=0.5 \
  -c:v libx264 -pix_fmt yuv420p -c:a aac -shortest "$work/clip.mp4"
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
unset DISPLAY WAYLAND_DISPLAY
# check NAME LOG RC: the run's figures; 1 (and the stacks) when it leaked or failed.
check() {
  local name="$1" log="$2" rc="$3" definite indirect possibly reachable
  definite=$(grep -oP 'definitely lost: \K[0-9,]+ bytes in [0-9,]+ blocks' "$log" || echo "0 bytes in 0 blocks")
  indirect=$(grep -oP 'indirectly lost: \K[0-9,]+ bytes in [0-9,]+ blocks' "$log" || echo "0 bytes in 0 blocks")
  possibly=$(grep -oP 'possibly lost: \K[0-9,]+ bytes in [0-9,]+ blocks' "$log" || echo "0 bytes in 0 blocks")
  reachable=$(grep -oP 'still reachable: \K[0-9,]+ bytes in [0-9,]+ blocks' "$log" || echo "0 bytes in 0 blocks")
  echo "  $name: definitely lost: $definite; indirectly lost: $indirect; possibly lost: $possibly; still reachable: $reachable"
  if [ "$rc" = 99 ]; then
    echo "---- $name: leaks ----"
    awk '/are (definitely|indirectly) lost/,/^==[0-9]+== $/' "$log" | sed 's/^==[0-9]*== //'
    return 1
  elif [ "$rc" != 0 ]; then
    tail -30 "$log"; echo "embed-leak-check: $name exited $rc" >&2; return 1
  fi
}
vg=(valgrind --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect
    --suppressions=scripts/leak-check.supp --num-callers=40 --error-exitcode=99)
start=$SECONDS
"${vg[@]}" .build/examples/repeat-host "$runs" "$work/clip.mp4" --transition none >"$work/frames.txt" 2>"$work/valgrind.log" && rc=0 || rc=$?
echo "embed-leak-check: $runs ads made and destroyed in $(( SECONDS - start )) s ($(wc -l < "$work/frames.txt") first frames)"
failed=0
check buffer "$work/valgrind.log" "$rc" || failed=1
start=$SECONDS
GALLIUM_DRIVER=softpipe "${vg[@]}" .build/examples/gl-host --repeat "$gl_runs" --detach-at-first-frame --size 160x120 \
  "$work/clip.mp4" --transition none >"$work/gl.txt" 2>"$work/valgrind-gl.log" && rc=0 || rc=$?
echo "embed-leak-check: $gl_runs ads played to their end in a GL context in $(( SECONDS - start )) s ($(grep -c '^event end completed' "$work/gl.txt") completed)"
check GL "$work/valgrind-gl.log" "$rc" || failed=1
[ "$failed" = 0 ] || exit 1
echo "embed-leak-check: no leak"
