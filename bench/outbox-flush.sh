#!/usr/bin/env bash
# Outbox benchmark (issue 10 item 7): `launchad outbox flush` of N queued beacons (default
# 10,000) to a local nginx answering 204, timed end to end (the process's wall time: start,
# reading the queue, sending, removing the files, the counters). The target is 1,000 beacons/s.
# Two shapes of queue, each run RUNS times:
#   one-event  all N beacons belong to one event of one run (sent together, 6 connections at once)
#   per-play   N beacons from N/7 plays (one run each), one beacon per event (impression, start,
#              quartiles, ...), the shape an offline kiosk leaves: each play's events in order,
#              6 plays side by side
# The queue is written in the outbox's file format by this script (python3), as enqueue would.
#
#   bash bench/outbox-flush.sh [N] [RUNS]                 (default 10000 3)
#   LAUNCHAD=/path/to/launchad bash bench/outbox-flush.sh    to time an existing build
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
N=${1:-10000}
RUNS=${2:-3}
source bench/lib-nginx.sh
bench_work outbox
bench_binary

{ nginx_head 256; cat <<CONF
    log_format uri '\$request_uri';
    access_log off;
    uwsgi_temp_path $WORK/tmp/uwsgi; scgi_temp_path $WORK/tmp/scgi;
    keepalive_requests 100000;
    server {
        listen 127.0.0.1:$PORT;
        location /t/ { access_log $WORK/logs/beacons.log uri; return 204; }
    }
}
CONF
} > "$WORK/nginx.conf"
nginx -p "$WORK" -c "$WORK/nginx.conf" -e "$WORK/logs/error.log"
sleep 0.3

# Writes N item files as Outbox.enqueue does (name: event ms, pid, counter, random; JSON body).
queue() {  # STATE SHAPE
    python3 - "$1" "$2" "$N" "$PORT" <<'PY'
import json, os, random, sys, time
state, shape, n, port = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
items = os.path.join(state, "outbox", "items")
os.makedirs(items, mode=0o700, exist_ok=True)
events = ["impression", "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"]
now = int(time.time() * 1000) - 10 * n
for i in range(n):
    if shape == "one-event":
        made, event = now, "impression"
    else:
        made, event = now + (i // 7) * 10 + i % 7, events[i % 7]
    url = f"http://127.0.0.1:{port}/t/{event}?play={i // 7}&n={i}&cb={random.randrange(10**8)}"
    run = os.getpid() if shape == "one-event" else 10000 + i // 7   # each play queued by its own process
    name = "%015d-%05d-%06d-%08x.beacon" % (made, run % 100000, i, random.randrange(2**32))
    body = {"url": url, "event": event, "made_ms": made, "expires_ms": made + 86400000, "attempts": 0, "next_ms": 0}
    with open(os.path.join(items, name), "w") as f:
        f.write(json.dumps(body, separators=(",", ":")))
PY
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "launchad: $LAUNCHAD outbox flush; nginx $(nginx -v 2>&1 | cut -d/ -f2) on 127.0.0.1:$PORT; $(nproc) cores; $N beacons"
printf "%-10s %-4s %8s %8s %10s %9s\n" shape run wall_s cpu_s beacons/s arrived
for shape in one-event per-play; do
    for run in $(seq 1 "$RUNS"); do
        state="$WORK/state-$shape-$run"
        queue "$state" "$shape"
        : > "$WORK/logs/beacons.log"
        start=$(date +%s.%N)
        /usr/bin/time -o "$WORK/cpu.txt" -f "%U %S" "$LAUNCHAD" outbox flush --state "$state" > "$WORK/status.json"
        end=$(date +%s.%N)
        arrived=$(wc -l < "$WORK/logs/beacons.log")
        python3 - "$start" "$end" "$N" "$arrived" "$shape" "$run" "$(tail -1 "$WORK/cpu.txt")" <<'PY'
import sys
start, end, n, arrived, shape, run = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
cpu = sum(map(float, sys.argv[7].split()))
wall = end - start
print("%-10s %-4s %8.2f %8.2f %10.0f %9d" % (shape, run, wall, cpu, n / wall, arrived))
PY
        rm -rf "$state"
    done
done
