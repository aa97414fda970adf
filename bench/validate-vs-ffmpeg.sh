#!/usr/bin/env bash
# Issue 5's benchmark: `launchad validate` (full decode, loudness with true peak, black and silence
# detection, every rule) against `ffmpeg -i FILE -af ebur128 -vf blackdetect -f null -` on the same
# 30 s 1080p creative, alternating, several runs. Prints wall, CPU (user+sys) and peak RSS per run,
# the medians and the ratio launchad / ffmpeg. The target is a wall-time ratio of at most 1.2.
# A third row times the same validation writing the HTML report (pictures and loudness series from
# the same pass, PNG encoding, the page): the target is at most 1.10 of the JSON run's wall time.
#
#   bash bench/validate-vs-ffmpeg.sh [RUNS]        (default 5)
#   LAUNCHAD=/path/to/launchad bash bench/validate-vs-ffmpeg.sh    to time an existing build
#   SCRATCH=/tmp/build-x bash bench/validate-vs-ffmpeg.sh          release build in that scratch path
#   SKIP_ISSUE5=1 bash bench/validate-vs-ffmpeg.sh                  only the issue 22 sections (quality rules, --jobs, 4K RSS)
#   SKIP_ISSUE5=1 SECTIONS="2 3" bash bench/validate-vs-ffmpeg.sh   only some of them
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
RUNS=${1:-5}
WORK=${TMPDIR:-/tmp}/launchad-bench
mkdir -p "$WORK"

if [ -z "${LAUNCHAD:-}" ]; then
    args=(-c release)
    [ -n "${SCRATCH:-}" ] && args+=(--scratch-path "$SCRATCH")
    swift build "${args[@]}" --product launchad >&2
    LAUNCHAD=$(swift build "${args[@]}" --show-bin-path)/launchad
fi

# One timed run: prints "WALL_S CPU_S MAXRSS_KB".
timed() {
    /usr/bin/time -o "$WORK/time.txt" -f "%e %U %S %M" "$@" >/dev/null 2>&1 || true
    # time puts "Command exited with non-zero status 1" first when a creative fails a rule.
    tail -1 "$WORK/time.txt" | awk '{ printf "%.2f %.2f %d\n", $1, $2 + $3, $4 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
col() { local n=$1; shift; for r in "$@"; do echo "$r" | cut -d' ' -f"$n"; done; }

if [ -z "${SKIP_ISSUE5:-}" ]; then
# The creative: 30 s of moving 1080p30 H.264 High with AAC-LC stereo 48 kHz, faststart.
FILE=$WORK/creative-30s-1080p.mp4
if [ ! -s "$FILE" ]; then
    echo "making $FILE ..." >&2
    ffmpeg -y -hide_banner -loglevel error \
        -f lavfi -i "testsrc2=s=1920x1080:r=30:d=30" \
        -f lavfi -i "anoisesrc=color=pink:amplitude=0.2:seed=3:r=48000:d=30" \
        -c:v libx264 -profile:v high -preset veryfast -b:v 8M -maxrate 8M -bufsize 16M -pix_fmt yuv420p -g 60 \
        -c:a aac -b:a 192k -ac 2 -ar 48000 -movflags +faststart "$FILE.part.mp4"
    mv "$FILE.part.mp4" "$FILE"
fi

echo "file: $FILE ($(stat -c %s "$FILE") bytes), $(nproc) cores, $RUNS runs each, alternating"
echo "launchad: $LAUNCHAD validate --profile iab-ctv --format json FILE"
echo "html:     $LAUNCHAD validate --profile iab-ctv --format html --output $WORK/report.html FILE"
echo "ffmpeg:   ffmpeg -i FILE -af ebur128 -vf blackdetect -f null -   ($(ffmpeg -version | head -1 | cut -d' ' -f1-3))"
printf "%-4s %-9s %8s %8s %10s\n" run tool wall_s cpu_s maxrss_kb
L=() F=() H=()
for i in $(seq 1 "$RUNS"); do
    f=$(timed ffmpeg -hide_banner -nostats -i "$FILE" -af ebur128 -vf blackdetect -f null -)
    l=$(timed "$LAUNCHAD" validate --profile iab-ctv --format json --no-progress "$FILE")
    h=$(timed "$LAUNCHAD" validate --profile iab-ctv --format html --output "$WORK/report.html" --no-progress "$FILE")
    printf "%-4s %-9s %8s %8s %10s\n" "$i" ffmpeg $f
    printf "%-4s %-9s %8s %8s %10s\n" "$i" launchad $l
    printf "%-4s %-9s %8s %8s %10s\n" "$i" html $h
    F+=("$f") L+=("$l") H+=("$h")
done

fw=$(col 1 "${F[@]}" | median) fc=$(col 2 "${F[@]}" | median) fr=$(col 3 "${F[@]}" | median)
lw=$(col 1 "${L[@]}" | median) lc=$(col 2 "${L[@]}" | median) lr=$(col 3 "${L[@]}" | median)
hw=$(col 1 "${H[@]}" | median) hc=$(col 2 "${H[@]}" | median) hr=$(col 3 "${H[@]}" | median)
echo
echo "median    wall_s  cpu_s  maxrss_kb"
echo "ffmpeg    $fw  $fc  $fr"
echo "launchad  $lw  $lc  $lr"
echo "html      $hw  $hc  $hr   ($(stat -c %s "$WORK/report.html") bytes)"
awk -v lw="$lw" -v fw="$fw" -v lc="$lc" -v fc="$fc" -v lr="$lr" -v fr="$fr" 'BEGIN {
    printf "ratio launchad/ffmpeg: wall %.2f, cpu %.2f, rss %.2f (target: wall <= 1.20)\n", lw / fw, lc / fc, lr / fr }'
awk -v hw="$hw" -v lw="$lw" -v hc="$hc" -v lc="$lc" -v hr="$hr" -v lr="$lr" 'BEGIN {
    printf "ratio html/json: wall %.2f, cpu %.2f, rss %.2f (target: wall <= 1.10)\n", hw / lw, hc / lc, hr / lr }'
fi

# ---------------------------------------------------------------------------------------------------------
# Issue 22: every quality rule from one decode and one filter graph.
#  1. The 10 s 1080p clip validated with every iab-ctv rule against one ffmpeg run of the same filters in one
#     graph (goal: wall <= 1.1x).
#  2. 20 creatives with --jobs 2 against --jobs 1 (goal: >= 1.8x faster on 2 cores).
#  3. Peak RSS validating a 4K 30 s creative (goal: < 400 MiB).
# The filter chains are AnalysisGraph.videoFilters / audioFilters (Sources/LaunchAdMedia/Analysis/AnalysisGraph.swift).
VF="blackdetect,freezedetect=d=0.1,idet,cropdetect,signalstats=stat=brng"
AF="ebur128=peak=true:metadata=1,silencedetect,astats=metadata=1:measure_perchannel=DC_offset+Peak_level+Peak_count:measure_overall=none,aphasemeter=video=0"
GRAPH="[0:v]$VF[vout];[0:a]$AF[aout]"

make_clip() {  # make_clip FILE SIZE SECONDS SEED
    [ -s "$1" ] && return
    echo "making $1 ..." >&2
    ffmpeg -y -hide_banner -loglevel error \
        -f lavfi -i "testsrc=s=$2:r=30:d=$3" \
        -f lavfi -i "anoisesrc=color=pink:amplitude=0.2:seed=$4:r=48000:d=$3" \
        -c:v libx264 -profile:v high -preset veryfast -b:v 8M -maxrate 8M -bufsize 16M -pix_fmt yuv420p -g 60 \
        -color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv \
        -c:a aac -b:a 192k -ac 2 -ar 48000 -movflags +faststart "$1.part.mp4"
    mv "$1.part.mp4" "$1"
}

med() { col "$1" "${@:2}" | median; }
section() { [[ " ${SECTIONS:-1 2 3} " == *" $1 "* ]]; }

if section 1; then
TEN=$WORK/creative-10s-1080p.mp4
make_clip "$TEN" 1920x1080 10 5
echo
echo "== 1. every rule on $TEN vs one ffmpeg graph"
echo "launchad: $LAUNCHAD validate --profile iab-ctv --format json --no-progress FILE"
echo "ffmpeg:   ffmpeg -i FILE -filter_complex '$GRAPH' -map '[vout]' -map '[aout]' -f null -"
printf "%-4s %-9s %8s %8s %10s\n" run tool wall_s cpu_s maxrss_kb
QL=() QF=()
for i in $(seq 1 "$RUNS"); do
    f=$(timed ffmpeg -hide_banner -nostats -i "$TEN" -filter_complex "$GRAPH" -map "[vout]" -map "[aout]" -f null -)
    l=$(timed "$LAUNCHAD" validate --profile iab-ctv --format json --no-progress "$TEN")
    printf "%-4s %-9s %8s %8s %10s\n" "$i" ffmpeg $f
    printf "%-4s %-9s %8s %8s %10s\n" "$i" launchad $l
    QF+=("$f") QL+=("$l")
done
qfw=$(med 1 "${QF[@]}") qlw=$(med 1 "${QL[@]}") qfc=$(med 2 "${QF[@]}") qlc=$(med 2 "${QL[@]}") qfr=$(med 3 "${QF[@]}") qlr=$(med 3 "${QL[@]}")
echo "median    wall_s  cpu_s  maxrss_kb"
echo "ffmpeg    $qfw  $qfc  $qfr"
echo "launchad  $qlw  $qlc  $qlr"
awk -v a="$qlw" -v b="$qfw" -v c="$qlc" -v d="$qfc" 'BEGIN { printf "ratio launchad/ffmpeg: wall %.2f, cpu %.2f (goal: wall <= 1.10)\n", a / b, c / d }'

fi

if section 2; then
echo
echo "== 2. 20 creatives, --jobs 2 vs --jobs 1"
SET=$WORK/twenty
mkdir -p "$SET"
for s in 1 2 3 4; do make_clip "$WORK/creative-6s-720p-$s.mp4" 1280x720 6 "$s"; done
for n in $(seq 1 20); do
    ln -f "$WORK/creative-6s-720p-$(( (n - 1) % 4 + 1 )).mp4" "$SET/ad-$(printf %02d "$n").mp4"
done
echo "launchad: $LAUNCHAD validate --profile iab-ctv --format json --no-progress --jobs N $SET/*.mp4   ($(nproc) cores)"
printf "%-4s %-7s %8s %8s %10s\n" run jobs wall_s cpu_s maxrss_kb
J1=() J2=()
for i in $(seq 1 "$RUNS"); do
    a=$(timed "$LAUNCHAD" validate --profile iab-ctv --format json --no-progress --jobs 1 "$SET"/*.mp4)
    b=$(timed "$LAUNCHAD" validate --profile iab-ctv --format json --no-progress --jobs 2 "$SET"/*.mp4)
    printf "%-4s %-7s %8s %8s %10s\n" "$i" 1 $a
    printf "%-4s %-7s %8s %8s %10s\n" "$i" 2 $b
    J1+=("$a") J2+=("$b")
done
j1=$(med 1 "${J1[@]}") j2=$(med 1 "${J2[@]}")
awk -v a="$j1" -v b="$j2" 'BEGIN { printf "median wall: --jobs 1 %.2f s, --jobs 2 %.2f s, speed-up %.2fx (goal: >= 1.8)\n", a, b, a / b }'

fi

if section 3; then
echo
echo "== 3. peak RSS, 4K 30 s"
FOURK=$WORK/creative-30s-2160p.mp4
make_clip "$FOURK" 3840x2160 30 9
printf "%-4s %-9s %8s %8s %10s\n" run tool wall_s cpu_s maxrss_kb
R=()
for i in $(seq 1 "$RUNS"); do
    r=$(timed "$LAUNCHAD" validate --profile iab-ctv --format json --no-progress "$FOURK")
    printf "%-4s %-9s %8s %8s %10s\n" "$i" launchad $r
    R+=("$r")
done
awk -v k="$(med 3 "${R[@]}")" 'BEGIN { printf "median peak RSS: %.0f MiB (goal: < 400)\n", k / 1024 }'
fi
