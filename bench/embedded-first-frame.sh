#!/usr/bin/env bash
# The first frame of a launch ad inside an application that is already running (the embedding
# library, its libraries loaded and the ad prepared) against a fresh `launchad play` process, on
# the same 1080p30 H.264 clip, alternating, in one run:
#   - embedded: repeat-host (C, liblaunchad, release) makes, prepares, presents and destroys the
#     ad N times in one process, into a 1280x720 buffer: ms from launchad_present to the first
#     drawn frame; the first run is left out (it is the one that loads the libraries);
#   - fresh: `launchad play CLIP --max-duration 1` under Xvfb, 1280x720: the first_frame event's
#     t_ms (ms since the process started).
#
#   bash bench/embedded-first-frame.sh [--runs N] [--out DIR]     (default 15 runs, DIR a temporary folder)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib-options.sh
source "$root/bench/lib-options.sh"
bench_options 15 "$@"
bench_need ffmpeg Xvfb gcc
work=$(mktemp -d)
out="${out:-$work}"
mkdir -p "$out"
export PATH="/opt/swift/usr/bin:$PATH"
# The packaged build (scripts/package.sh): release, the Swift runtime linked in.
(cd "$root" && swift build -c release --static-swift-stdlib --scratch-path .build/static --product launchad >&2 \
  && swift build -c release --scratch-path .build/static-lib --product LaunchAdEmbed -Xswiftc -static-stdlib >&2 \
  && bash scripts/build-examples.sh --release --skip-build --scratch-path .build/static-lib >&2)
launchad="$root/.build/static/release/launchad"
host="$root/.build/examples/repeat-host"
clip="$out/clip-1080p30.mp4"
[ -s "$clip" ] || ffmpeg -nostdin -y -hide_banner -loglevel error -f lavfi -i testsrc2=s=1920x1080:r=30:d=4 \
  -f lavfi -i sine=d=4 -c:v libx264 -preset veryfast -pix_fmt yuv420p -c:a aac -shortest "$clip"
display=":$((200 + RANDOM % 500))"
Xvfb "$display" -screen 0 1280x720x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done

embedded=() fresh=()
# The embedded runs, in one process (the first of them loads the libraries: left out).
mapfile -t all < <(SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$host" "$((runs + 1))" "$clip" --transition none)
embedded=("${all[@]:1}")
for _ in $(seq "$runs"); do
  DISPLAY="$display" SDL_AUDIODRIVER=dummy "$launchad" play "$clip" --max-duration 1 --size 1280x720 --events "$work/events" \
    >/dev/null 2>&1 || die "launchad play failed"
  fresh+=("$(sed -n 's/.*"event":"first_frame","t_ms":\([0-9]*\).*/\1/p' "$work/events" | head -n 1)")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
printf 'embedded (present -> first frame, warm host): median %s ms; runs: %s\n' "$(median "${embedded[@]}")" "${embedded[*]}"
printf 'fresh launchad play (process start -> first frame): median %s ms; runs: %s\n' "$(median "${fresh[@]}")" "${fresh[*]}"
