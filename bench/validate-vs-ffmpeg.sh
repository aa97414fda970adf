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
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
RUNS=${1:-5}
WORK=${TMPDIR:-/tmp}/launchad-bench
mkdir -p "$WORK"

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

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
col() { local n=$1; shift; for r in "$@"; do echo "$r" | cut -d' ' -f"$n"; done; }
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
