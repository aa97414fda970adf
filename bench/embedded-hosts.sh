#!/usr/bin/env bash
# Launch ads inside GTK 4 and Qt 6 applications against `launchad play`, on the same 1080p30
# H.264 clip (bench/lib-clip.sh: 10 s of testsrc2 and a tone), side by side in one run under one
# Xvfb (with openbox), interleaved, N runs each (issue 39, item 4):
#   - gtk4-host        a GtkGLArea, launchad_attach_gl (the picture converted in a shader)
#   - gtk4-host-buffer --buffer: launchad_attach_buffer into a GdkMemoryTexture per frame
#   - qt6-host         a QOpenGLWidget, launchad_attach_gl
#   - qt6-host-buffer  --buffer: launchad_attach_buffer into a QImage per frame
#   - launchad play    its own 1280x800 window (SDL's software renderer: Xvfb has no GPU)
# and, to tell the library's share from the toolkit's:
#   - gtk4-host-buffer-cairo  --buffer with GTK's cairo renderer (GSK_RENDERER=cairo), no GL at all
#   - gl-host          the library's GL path alone: EGL surfaceless, a 1270x744 framebuffer object
#                      of its own, rendered only when woken, nothing presented
# The hosts' windows are 1280x800 with their bar; the ad plays in the content area below it.
# Per player, the medians of:
#   - first frame: ms from starting the process to its first-frame line (the host's
#     "event first_frame", launchad's first_frame event), all libraries loaded by the process;
#   - CPU while playing: the process's CPU (all threads) between its first-frame and end lines,
#     in % of one core; and the X server's over the same time (what presenting costs Xvfb).
# Everything draws with Mesa's llvmpipe (software GL) or the CPU: on a real GPU see
# docs/benchmarks.md#embedded-in-gtk-4-and-qt-6.
#
#   bash bench/embedded-hosts.sh [--runs N] [--out DIR]     (default 5 runs; DIR a temporary folder)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib-clip.sh
source "$root/bench/lib-clip.sh"
# shellcheck source=lib-options.sh
source "$root/bench/lib-options.sh"
bench_options 5 "$@"
bench_need ffmpeg Xvfb openbox gcc g++ python3
work=$(mktemp -d)
out="${out:-$work}"
mkdir -p "$out"
export PATH="/opt/swift/usr/bin:$PATH"
# The packaged builds (scripts/package.sh): release, the Swift runtime linked in.
(cd "$root" && swift build -c release --static-swift-stdlib --scratch-path .build/static --product launchad >&2 \
  && swift build -c release --scratch-path .build/static-lib --product LaunchAdEmbed -Xswiftc -static-stdlib >&2 \
  && bash scripts/build-examples.sh --release --skip-build --scratch-path .build/static-lib >&2)
launchad="$root/.build/static/release/launchad"
examples="$root/.build/examples"
for host in gtk4-host qt6-host; do [ -x "$examples/$host" ] || die "no $examples/$host (bash scripts/setup.sh --test)"; done
clip="$out/clip-1080p30.mp4"
bench_clip "$clip" 1920x1080

display=":$((200 + RANDOM % 500))"
Xvfb "$display" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null; [ -n "${wm:-}" ] && kill "$wm" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done
DISPLAY="$display" openbox --sm-disable >/dev/null 2>&1 &
wm=$!
sleep 1
export DISPLAY="$display" SDL_AUDIODRIVER=dummy GTK_A11Y=none NO_AT_BRIDGE=1
unset SDL_VIDEODRIVER

players=(gtk4-host gtk4-host-buffer qt6-host qt6-host-buffer launchad-play gtk4-host-buffer-cairo gl-host)
command_of() {
  case "$1" in
    gtk4-host) echo "$examples/gtk4-host" ;;
    gtk4-host-buffer) echo "$examples/gtk4-host --buffer" ;;
    qt6-host) echo "$examples/qt6-host" ;;
    qt6-host-buffer) echo "$examples/qt6-host --buffer" ;;
    launchad-play) echo "$launchad play --size 1280x800" ;;
    gtk4-host-buffer-cairo) echo "env GSK_RENDERER=cairo $examples/gtk4-host --buffer" ;;
    gl-host) echo "$examples/gl-host --wake-only --size 1270x744" ;;
  esac
}
echo "bench: load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" | tee "$out/load.txt" >&2
: > "$out/runs.jsonl"
for run in $(seq "$runs"); do
  for player in "${players[@]}"; do
    # shellcheck disable=SC2046
    line=$(python3 "$root/bench/host-run.py" "$xvfb" -- $(command_of "$player") "$clip" --transition none)
    echo "{\"player\":\"$player\",\"run\":$run,${line#\{}" >> "$out/runs.jsonl"
    echo "bench: $player run $run: $line" >&2
  done
done
echo "bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/load.txt" >&2
cat "$out/load.txt"
gl=$(glxinfo -B 2>/dev/null | sed -n 's/^OpenGL renderer string: //p' | head -1)
python3 - "$out/runs.jsonl" "${gl:-llvmpipe}" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
renderer = next((r["renderer"] for r in rows if r.get("renderer")), "?")
def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None
def fmt(x, unit=""):
    return "-" if x is None else f"{x:g}{unit}"
print(f"launchad play's renderer (its window event): {renderer}; GL: {sys.argv[2]}")
print("| player | first frame from start (ms) | CPU while playing (% of a core) | Xvfb's CPU meanwhile | runs completed |")
print("|---|---|---|---|---|")
for p in dict.fromkeys(r["player"] for r in rows):
    rs = [r for r in rows if r["player"] == p]
    done = sum(r["outcome"] == "completed" for r in rs)
    ff = med([r["first_frame_ms"] for r in rs]); cpu = med([r["cpu_pct"] for r in rs]); x = med([r["xvfb_pct"] for r in rs])
    def span(key):
        xs = [r[key] for r in rs if r[key] is not None]
        return f"({fmt(min(xs))}–{fmt(max(xs))})" if xs else ""
    print(f"| {p} | {fmt(ff)} {span('first_frame_ms')} | {fmt(cpu)} {span('cpu_pct')} | {fmt(x)} | {done}/{len(rs)} |")
PY
