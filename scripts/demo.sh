#!/usr/bin/env bash
# The main job: installs what is missing, builds, and plays the sample ad from Media/,
# in a real window when there is a display, else in a virtual display (Xvfb) it starts itself.
# Extra arguments go to `launchad play` (e.g. --skip-style ring).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
bash scripts/setup.sh --run
swift build -c release --product launchad 2>&1 | grep -E "error|warning: unre" >&2 || true
bin=".build/release/launchad"
[ -x "$bin" ] || { echo "demo: build failed" >&2; exit 1; }
args=(play Media/sample-ad.mp4 --fallback Media/fallback.png --link https://example.com/sale "$@")
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$bin" "${args[@]}"
fi
echo "demo: no display; playing in a virtual display (Xvfb) with the dummy audio driver" >&2
SDL_AUDIODRIVER="${SDL_AUDIODRIVER:-dummy}" exec xvfb-run -a -s "-screen 0 1280x1024x24" "$bin" "${args[@]}"
