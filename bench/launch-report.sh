#!/usr/bin/env bash
# Play records on the launch path (issue 11): `launch` from the cache with and without a
# collector in the manifest ("report"), alternating, RUNS runs each, headless (SDL dummy
# drivers). Per run: the first frame (the first_frame event's t_ms, from process start) and
# when the --then application starts (its own clock minus the launcher's start). With a
# report, each run also writes its record to the outbox and POSTs it to a local nginx.
#
#   bash bench/launch-report.sh [RUNS]                     (default 9)
#   LAUNCHAD=/path/to/launchad bash bench/launch-report.sh    to time an existing build
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
RUNS=${1:-9}
source bench/lib-nginx.sh
bench_work report
bench_binary

{ nginx_head 64; cat <<CONF
    access_log off;
    uwsgi_temp_path $WORK/tmp/uwsgi; scgi_temp_path $WORK/tmp/scgi;
    server {
        listen 127.0.0.1:$PORT;
        root $WORK/www;
        location /pop { return 204; }
    }
}
CONF
} > "$WORK/nginx.conf"
nginx -p "$WORK" -c "$WORK/nginx.conf" -e "$WORK/logs/error.log"

# A 3 s 640x360 H.264 clip and two manifests naming it, one with a collector.
ffmpeg -y -hide_banner -loglevel error -f lavfi -i "testsrc2=s=640x360:r=30:d=3" -c:v libx264 -preset veryfast \
    -pix_fmt yuv420p "$WORK/www/clip.mp4"
SHA=$(sha256sum "$WORK/www/clip.mp4" | cut -d' ' -f1)
BYTES=$(stat -c %s "$WORK/www/clip.mp4")
AD="{\"id\": \"clip\", \"type\": \"video\", \"variants\": [{\"url\": \"clip.mp4\", \"width\": 640, \"height\": 360, \"bytes\": $BYTES, \"sha256\": \"$SHA\"}]}"
echo "{\"ads\": [$AD]}" > "$WORK/www/plain.json"
echo "{\"report\": {\"url\": \"http://127.0.0.1:$PORT/pop\", \"batch\": 50}, \"ads\": [$AD]}" > "$WORK/www/report.json"
for m in plain report; do
    "$LAUNCHAD" prefetch --manifest "http://127.0.0.1:$PORT/$m.json" --cache "$WORK/cache-$m" --state "$WORK/state-$m" \
        --size 640x360 --no-progress > /dev/null
done

export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
one() {  # MANIFEST -> "FIRST_FRAME_MS APP_MS"
    local m=$1 start
    start=$(date +%s%N)
    "$LAUNCHAD" launch --manifest "http://127.0.0.1:$PORT/$m.json" --cache "$WORK/cache-$m" --state "$WORK/state-$m" \
        --size 640x360 --transition none --events "$WORK/events.jsonl" --then sh -c "date +%s%N > $WORK/app.txt" > /dev/null
    python3 - "$WORK/events.jsonl" "$start" "$(cat "$WORK/app.txt")" <<'PY'
import json, sys
first = next((e["t_ms"] for e in map(json.loads, open(sys.argv[1])) if e.get("event") == "first_frame"), -1)
print(first, (int(sys.argv[3]) - int(sys.argv[2])) // 1_000_000)
PY
}

echo "launchad: $LAUNCHAD launch (cached 3 s 640x360 clip, --then sh); $(nproc) cores; $RUNS runs each, alternating"
printf "%-4s %-7s %14s %8s\n" run report first_frame_ms app_ms
P=() R=()
for i in $(seq 1 "$RUNS"); do
    p=$(one plain); r=$(one report)
    printf "%-4s %-7s %14s %8s\n" "$i" no $p
    printf "%-4s %-7s %14s %8s\n" "$i" yes $r
    P+=("$p") R+=("$r")
done
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
col() { local n=$1; shift; for r in "$@"; do echo "$r" | cut -d' ' -f"$n"; done; }
echo "median without report: first frame $(col 1 "${P[@]}" | median) ms, app started $(col 2 "${P[@]}" | median) ms"
echo "median with report:    first frame $(col 1 "${R[@]}" | median) ms, app started $(col 2 "${R[@]}" | median) ms"
"$LAUNCHAD" outbox status --state "$WORK/state-report"
