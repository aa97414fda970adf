#!/usr/bin/env bash
# Plays the same 1080p30 H.264 High + AAC stereo 48 kHz clip (and a 4K30 one) with launchad, ffplay
# and mpv in turn (interleaved, N runs each) under ONE Xvfb, and reports per player and clip the
# median wall time, CPU seconds (user + sys), peak RSS (GNU time) and dropped frames, the ratios
# launchad / each other player, and launchad's first-frame time (its `first_frame` event's t_ms,
# ms since process start).
#
#   bash bench/play-vs-ffplay-mpv.sh [--runs N] [--no-setup] [--no-build] [--no-warmup] [--wm]
#                                    [--launchad-render LIST] [--threads] [--compare LABEL=BIN]... [--no-4k] [--presents]
#
#   --runs N                runs per player (default 5)
#   --no-setup              do not call scripts/setup.sh (fail if a tool is missing)
#   --no-build              use the existing binary (LAUNCHAD_BIN or .build/release/launchad)
#   --no-warmup             skip the one unrecorded warm-up run per player
#   --wm                    run openbox on the Xvfb display (default: no window manager)
#   --launchad-render LIST  also play with launchad under SDL_RENDER_DRIVER=each of LIST
#                           (comma separated, e.g. software,opengl): rows "launchad[software]"...
#   --threads               after the timed runs, one extra run per player that samples each
#                           thread's CPU time (/proc) into bench/results/threads-PLAYER.json
#   --compare LABEL=BIN     also play with another launchad binary (e.g. one built from an older
#                           revision), interleaved with the rest: rows "launchad-LABEL" (repeatable)
#   --presents              after the timed runs, one run of each launchad build on the 1080p clip
#                           under `perf stat` with a uprobe on SDL_RenderPresent: presents per
#                           second of media next to frames shown (needs perf and uprobes; root)
#   --load N                N busy loops (one core each) run beside every timed run, to compare the
#                           players on a machine that is busy with something else (default 0)
#   --no-4k                 only the 1080p clip (the 4K clip is a 3840x2160 30 fps H.264 High
#                           testsrc2 + tone, 10 s, played in the same 1920x1080 screen)
#
# Dropped frames: launchad's `end` event (frames_dropped of frames_shown + frames_dropped), mpv's
# frame-drop-count + decoder-frame-drop-count (printed by --term-status-msg), ffplay's `fd=` from
# its -stats line.
#
# Environment: LAUNCHAD_BIN (default .build/release/launchad, built here unless --no-build; set it
# to a binary built elsewhere, e.g. with --scratch-path, when .build is busy), LAUNCHAD_REV (the
# revision that binary was built from, for the report; default the checkout's HEAD).
#
# Audio: every player opens and decodes the AAC track and keeps its audio clock, but nobody makes
# a sound: launchad and ffplay run with SDL_AUDIODRIVER=dummy (SDL consumes the samples in real
# time and discards them), mpv with --ao=null (the same, inside mpv). Decoding, resampling and the
# audio-master clock are counted; a sound server's or an ALSA device's own cost is not.
#
# Video: Xvfb has no GPU. ffplay's SDL renderer there is "opengl" on Mesa's llvmpipe (software GL);
# launchad sees no DRI render node and uses SDL's software renderer (its `window` event says which,
# and the report quotes it); mpv's --vo=gpu refuses llvmpipe unless --gpu-sw is given, so
# mpv is measured twice: --vo=x11 (swscale + XShm, no GL) and --vo=gpu --gpu-sw (llvmpipe).
#
# Results: bench/results/play.md (Markdown, also printed), bench/results/runs.tsv (every run),
# bench/results/logs/ (each run's stdout/stderr). bench/results/ is not committed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
results="$here/results"
export PATH="/opt/swift/usr/bin:$PATH"

runs=5 setup=1 build=1 warmup=1 wm=0 sample_threads=0 render_list="" with_4k=1 count_presents=0 load_procs=0
declare -A compare_bins=()
compare_labels=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
    --no-setup) setup=0; shift ;;
    --no-build) build=0; shift ;;
    --no-warmup) warmup=0; shift ;;
    --wm) wm=1; shift ;;
    --threads) sample_threads=1; shift ;;
    --launchad-render) render_list="${2:?--launchad-render needs a list}"; shift 2 ;;
    --compare) c="${2:?--compare needs LABEL=BIN}"; [[ "$c" == *=* ]] || { echo "bench: --compare wants LABEL=BIN, not '$c'" >&2; exit 2; }
      compare_bins["${c%%=*}"]="${c#*=}"; compare_labels+=("${c%%=*}"); shift 2 ;;
    --no-4k) with_4k=0; shift ;;
    --load) load_procs="${2:?--load needs a number}"; shift 2 ;;
    --presents) count_presents=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "bench: --runs wants a positive number, not '$runs'" >&2; exit 2; }
[[ "$load_procs" =~ ^[0-9]+$ ]] || { echo "bench: --load wants a number of busy loops, not '$load_procs'" >&2; exit 2; }

die() { echo "bench: $*" >&2; exit 1; }

# ------------------------------------------------------------------ 1. tools, build, clip
if [ "$setup" = 1 ]; then
  bash "$root/scripts/setup.sh" --run --bench
fi
for tool in ffmpeg ffprobe ffplay mpv Xvfb python3; do
  command -v "$tool" >/dev/null || die "'$tool' is missing (bash scripts/setup.sh --run --bench installs it)"
done
[ -x /usr/bin/time ] || die "GNU time (/usr/bin/time) is missing (apt-get install time)"
[ "$wm" = 0 ] || command -v openbox >/dev/null || die "--wm needs openbox (apt-get install openbox)"

bin="${LAUNCHAD_BIN:-$root/.build/release/launchad}"
if [ "$build" = 1 ] && [ -z "${LAUNCHAD_BIN:-}" ]; then
  echo "bench: building launchad (release)" >&2
  (cd "$root" && swift build -c release --product launchad 2>&1 | tail -3) >&2
fi
[ -x "$bin" ] || die "no launchad binary at $bin (build it, or set LAUNCHAD_BIN)"
for l in "${compare_labels[@]}"; do [ -x "${compare_bins[$l]}" ] || die "--compare $l: no launchad binary at ${compare_bins[$l]}"; done

mkdir -p "$results/logs"
rm -f "$results"/logs/*
clip="$results/clip-1080p30-h264-aac.mp4"
slow="$results/clip-1080p30-moov-at-end.mp4"
dur=10   # the clips' length, as bench_clip makes them
# shellcheck source=bench/lib-clip.sh
. "$root/bench/lib-clip.sh"
bench_clip "$clip" 1920x1080
clip4k="$results/clip-2160p30-h264-aac.mp4"
if [ "$with_4k" = 1 ]; then bench_clip "$clip4k" 3840x2160 5.1; fi
if [ ! -s "$slow" ]; then
  # The same streams with the moov atom after the media data (no faststart), for first-frame only.
  ffmpeg -nostdin -loglevel error -y -i "$clip" -c copy -map 0 "$slow.tmp.mp4"
  mv "$slow.tmp.mp4" "$slow"
fi

# ------------------------------------------------------------------ 2. one Xvfb for the run
xvfb_pid="" wm_pid="" xdg=""
load_pids=()
cleanup() {
  for p in "${load_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -n "$wm_pid" ] && kill "$wm_pid" 2>/dev/null || true
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
  [ -n "$xdg" ] && rm -rf "$xdg" || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

dispfile="$(mktemp)"
Xvfb -displayfd 3 -screen 0 1920x1080x24 -nolisten tcp 3>"$dispfile" 2>"$results/logs/xvfb.log" &
xvfb_pid=$!
for _ in $(seq 100); do [ -s "$dispfile" ] && break; sleep 0.05; done
[ -s "$dispfile" ] || die "Xvfb did not start (see $results/logs/xvfb.log)"
export DISPLAY=":$(head -1 "$dispfile")"
rm -f "$dispfile"
if [ "$wm" = 1 ]; then
  openbox >/dev/null 2>&1 &
  wm_pid=$!
  sleep 0.5
fi
# mpv's GPU context probe complains without one; a private, empty runtime dir.
xdg="$(mktemp -d)"; chmod 700 "$xdg"; export XDG_RUNTIME_DIR="$xdg"
echo "bench: Xvfb on $DISPLAY (pid $xvfb_pid)" >&2

# ------------------------------------------------------------------ players
# mpv says nothing but its status line, which carries its drop counts.
mpv_quiet=(--msg-level=all=error,statusline=status '--term-status-msg=launchad-bench drops=${frame-drop-count} decoder_drops=${decoder-frame-drop-count}')
# player_cmd NAME FILE sets CMD (an env-prefixed command line) for that player.
player_cmd() {
  local name="$1" file="$2"
  case "$name" in
    launchad) CMD=(env SDL_AUDIODRIVER=dummy "$bin" play "$file") ;;
    launchad-*) CMD=(env SDL_AUDIODRIVER=dummy "${compare_bins[${name#launchad-}]}" play "$file") ;;
    launchad\[*\]) local rd="${name#launchad[}"; rd="${rd%]}"
      CMD=(env SDL_AUDIODRIVER=dummy SDL_RENDER_DRIVER="$rd" "$bin" play "$file") ;;
    ffplay) CMD=(env SDL_AUDIODRIVER=dummy ffplay -autoexit -stats -loglevel error "$file") ;;
    mpv-x11) CMD=(mpv --no-config --ao=null --vo=x11 "${mpv_quiet[@]}" --no-input-terminal "$file") ;;
    mpv-gpu-sw) CMD=(mpv --no-config --ao=null --vo=gpu --gpu-sw "${mpv_quiet[@]}" --no-input-terminal "$file") ;;
    *) die "unknown player $name" ;;
  esac
}

# Which mpv video outputs work here (a 3-frame probe each).
mpv_probe=""
for vo in "x11" "gpu" "gpu --gpu-sw"; do
  # shellcheck disable=SC2086
  if timeout 20 mpv --no-config --ao=null --vo=$vo --frames=3 --really-quiet --no-input-terminal "$clip" \
       </dev/null >"$results/logs/mpv-probe.log" 2>&1; then r="works"; else r="fails (exit $?)"; fi
  mpv_probe+="\`--vo=$vo\` $r; "
done
players=(launchad ffplay mpv-x11 mpv-gpu-sw)
for l in "${compare_labels[@]}"; do players=("${players[0]}" "launchad-$l" "${players[@]:1}"); done
IFS=',' read -r -a extra_render <<<"$render_list"
for rd in "${extra_render[@]}"; do [ -n "$rd" ] && players+=("launchad[$rd]"); done

runs_tsv="$results/runs.tsv"
printf 'set\tplayer\trun\tok\trc\twall_s\tuser_s\tsys_s\tmaxrss_kb\tfirst_frame_ms\tstart_ms\toutcome\tload1\tframes\tdropped\n' >"$runs_tsv"

# run_one SET LABEL PLAYER RUN FILE [extra args...]: one timed run, one line in runs.tsv.
run_one() {
  local set="$1" label="$2" name="$3" i="$4" file="$5"; shift 5
  player_cmd "$name" "$file"
  [ $# -gt 0 ] && CMD+=("$@")
  # The floor: the process starting and loading its libraries, nothing played.
  [ "$set" = version ] && CMD=("${CMD[@]:0:$((${#CMD[@]} - 2))}" --version)
  local tag="$set-${label//[^A-Za-z0-9_.-]/_}-$i" tfile out err rc=0 load
  tfile="$results/logs/$tag.time"; out="$results/logs/$tag.out"; err="$results/logs/$tag.err"
  load="$(cut -d' ' -f1 /proc/loadavg)"
  /usr/bin/time -o "$tfile" -f "%e %U %S %M" timeout -k 5 120 "${CMD[@]}" </dev/null >"$out" 2>"$err" || rc=$?
  local wall user sys rss ff start outcome frames dropped ok=1
  read -r wall user sys rss < <(tail -1 "$tfile")
  ff=- start=- outcome=- frames=- dropped=-
  if [ "$set" = version ]; then
    :
  elif [[ "$name" == launchad* ]]; then
    read -r ff start outcome frames dropped < <(python3 "$here/measure.py" events "$out")
    [ "$outcome" = completed ] || ok=0
  else
    read -r frames dropped < <(python3 "$here/measure.py" drops "$out" "$err")
  fi
  [ "$rc" = 0 ] || ok=0
  # A play run that ends early did not play the clip.
  if [[ "$set" == play* ]] && ! awk -v w="$wall" -v d="$dur" 'BEGIN { exit !(w >= 0.8 * d) }'; then ok=0; fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$set" "$label" "$i" "$ok" "$rc" "$wall" "$user" "$sys" \
    "$rss" "$ff" "$start" "$outcome" "$load" "$frames" "$dropped" >>"$runs_tsv"
  printf 'bench: %-10s %-40s run %s: wall %ss cpu %s+%ss rss %sKiB first_frame %s dropped %s ok=%s\n' \
    "$set" "$label" "$i" "$wall" "$user" "$sys" "$rss" "$ff" "$dropped" "$ok" >&2
  [ "$ok" = 1 ] || echo "bench:   run failed (exit $rc, outcome $outcome); see $err" >&2
}

if [ "$warmup" = 1 ]; then
  echo "bench: warm-up (not recorded)" >&2
  for p in "${players[@]}"; do
    player_cmd "$p" "$clip"
    timeout -k 5 120 "${CMD[@]}" </dev/null >/dev/null 2>&1 || true
  done
fi

# ------------------------------------------------------------------ 3. timed runs, interleaved
for _ in $(seq "$load_procs"); do
  (while :; do :; done) &
  load_pids+=($!)
done
[ "$load_procs" = 0 ] || echo "bench: $load_procs busy loop(s) running beside every run" >&2
for i in $(seq "$runs"); do
  for p in "${players[@]}"; do run_one play "$p" "$p" "$i" "$clip"; done
  if [ "$with_4k" = 1 ]; then
    for p in "${players[@]}"; do run_one play-4k "$p" "$p" "$i" "$clip4k"; done
  fi
done
# First frame only: short runs (1 s of video) of every launchad build, faststart vs moov at the
# end; and `launchad --version`, the floor (process start and dynamic loading alone).
launchads=()
for p in "${players[@]}"; do [[ "$p" == launchad* ]] && launchads+=("$p"); done
for i in $(seq "$runs"); do
  for p in "${launchads[@]}"; do
    run_one firstframe "$p, faststart (--max-duration 1)" "$p" "$i" "$clip" --max-duration 1
    run_one firstframe "$p, moov at the end (--max-duration 1)" "$p" "$i" "$slow" --max-duration 1
    run_one version "$p --version" "$p" "$i" "$clip"
  done
done

presents_md="$results/presents.md"
rm -f "$presents_md"
if [ "$count_presents" = 1 ]; then
  sdl_lib="$(ldconfig -p | awk '/libSDL2-2.0.so.0 / { print $NF; exit }')"
  perf probe -q -x "$sdl_lib" SDL_RenderPresent 2>/dev/null || true # already there is fine
  {
    echo "Presents (\`perf stat -e probe_libSDL2:SDL_RenderPresent\`, one run each, 1080p clip):"
    echo
    echo "| build | presents | per second of media | frames shown / dropped |"
    echo "|---|---|---|---|"
  } >"$presents_md"
  for p in "${launchads[@]}"; do
    player_cmd "$p" "$clip"
    pstat="$results/logs/presents-$p.txt"
    perf stat -x, -e probe_libSDL2:SDL_RenderPresent -o "$pstat" "${CMD[@]}" </dev/null >"$results/logs/presents-$p.out" 2>/dev/null || true
    n="$(awk -F, '/SDL_RenderPresent/ { print $1 }' "$pstat" 2>/dev/null)"
    read -r _ _ _ frames dropped < <(python3 "$here/measure.py" events "$results/logs/presents-$p.out")
    shown=$([ "$frames" = - ] && echo - || echo $((frames - dropped)))
    echo "| $p | ${n:--} | $(awk -v n="${n:-0}" -v d="$dur" 'BEGIN { printf "%.1f", n / d }') | $shown / $dropped |" >>"$presents_md"
    echo "bench: presents of $p: ${n:-unknown}" >&2
  done
fi

if [ "$sample_threads" = 1 ]; then
  for p in "${players[@]}"; do
    player_cmd "$p" "$clip"
    python3 "$here/measure.py" threads "$results/threads-$p.json" -- "${CMD[@]}" >/dev/null 2>&1 ||
      echo "bench: thread sampling of $p failed" >&2
    echo "bench: threads of $p -> $results/threads-$p.json" >&2
  done
fi

# ------------------------------------------------------------------ 4. report
meta="$results/meta.txt"
{
  echo "## launchad vs ffplay vs mpv: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "- clip: $(basename "$clip"), $(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name,profile,width,height,r_frame_rate -of csv=p=0 "$clip" | tr ',' ' ')" \
       "+ $(ffprobe -v error -select_streams a:0 -show_entries stream=codec_name,sample_rate,channels -of csv=p=0 "$clip" | tr ',' ' '), ${dur} s, faststart"
  [ "$with_4k" = 1 ] && echo "- clip play-4k: $(basename "$clip4k"), $(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name,profile,width,height,r_frame_rate -of csv=p=0 "$clip4k" | tr ',' ' '), same audio, ${dur} s"
  for l in "${compare_labels[@]}"; do echo "- launchad-$l: ${compare_bins[$l]}"; done
  echo "- runs: $runs per player, interleaved, one Xvfb 1920x1080x24 ($([ "$wm" = 1 ] && echo "openbox" || echo "no window manager")); warm-up run first: $([ "$warmup" = 1 ] && echo yes || echo no)"
  [ "$load_procs" = 0 ] || echo "- synthetic load: $load_procs busy loop(s) (\`--load $load_procs\`) beside every timed run"
  echo "- machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(awk '/MemTotal/ { printf "%.1f GiB", $2/1048576 }' /proc/meminfo), $(uname -r)"
  echo "- launchad ${LAUNCHAD_REV:-$(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo '?')} release ($bin), $(ffmpeg -version | head -1 | cut -d' ' -f1-3), $(mpv --version | head -1 | cut -d' ' -f1-2), SDL $(dpkg-query -W -f='${Version}' libsdl2-2.0-0 2>/dev/null || echo '?'), Mesa $(dpkg-query -W -f='${Version}' libgl1-mesa-dri 2>/dev/null || echo '?')"
  # awk stops at the first match itself: grep | head would die of SIGPIPE under pipefail.
  ld_renderer=$(awk '/"event":"window"/ { print; exit }' "$results"/logs/*launchad*.out 2>/dev/null |
    python3 -c 'import sys, json; l = sys.stdin.readline(); print(json.loads(l).get("renderer", "unknown") if l else "unknown")')
  echo "- renderers: launchad's \`window\` event says \"$ld_renderer\"; ffplay's SDL default: $(python3 "$here/measure.py" sdl-renderer 2>/dev/null || echo unknown); mpv probe: $mpv_probe"
  echo "- audio: decoded by all, heard by none (SDL_AUDIODRIVER=dummy for launchad and ffplay, --ao=null for mpv)"
  echo "- commands: \`launchad play FILE\`, \`ffplay -autoexit -stats -loglevel error FILE\`, \`mpv --no-config --ao=null --vo=x11|--vo=gpu --gpu-sw FILE\` (mpv quiet but for its status line, which carries its drop counts)"
} >"$meta"
python3 "$here/measure.py" report "$runs_tsv" "$meta" "$results/play.md"
if [ -s "$presents_md" ]; then { echo; cat "$presents_md"; } | tee -a "$results/play.md"; fi
echo "bench: written $results/play.md" >&2
