#!/usr/bin/env bash
# ClickHouse play records (issue 33): N synthetic play records (default 1,000,000) through the
# outbox into a local clickhouse-server (Debian's, 18.16 on Debian 12) started here on a free
# loopback port with its own config and data folder. The records are queued CHUNK at a time
# (default 10,000: the outbox keeps at most 10,000 items and 10 MB) in the outbox's own file
# format, as `enqueue` writes them for `--report URL --report-format clickhouse`, and each chunk
# is sent by `launchad outbox flush` (1,000 records per INSERT ... FORMAT JSONEachRow, the
# manifest's largest batch). Reported: records per second of the flushes (their wall time:
# reading the items, one POST per batch, removing the files, the counters), then the rows in
# the table and its bytes on disk per record after OPTIMIZE ... FINAL.
# Synthetic plays: 2,000 screens, 40 ads, 30 days, 92% completed, 5% skipped, 3% errors.
#
#   bash bench/clickhouse-insert.sh [N] [CHUNK]                (default 1000000 10000)
#   LAUNCHAD=/path/to/launchad bash bench/clickhouse-insert.sh    to time an existing build
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
N=${1:-1000000}
CHUNK=${2:-10000}
[ "$CHUNK" -le 10000 ] || { echo "CHUNK must be at most 10000 (the outbox's bound)" >&2; exit 2; }
WORK=${TMPDIR:-/tmp}/launchad-bench-clickhouse-$$
mkdir -p "$WORK"/{data,tmp,log,user_files,format_schemas}
trap '[ -n "${CH_PID:-}" ] && kill "$CH_PID" 2>/dev/null && wait "$CH_PID" 2>/dev/null; rm -rf "$WORK"' EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
if [ -z "${LAUNCHAD:-}" ]; then
    swift build -c release --product launchad >&2
    LAUNCHAD=$(swift build -c release --show-bin-path)/launchad
fi

cat > "$WORK/config.xml" <<CONF
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$WORK/log/server.log</log><errorlog>$WORK/log/err.log</errorlog><size>10M</size><count>1</count></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>$PORT</http_port>
  <path>$WORK/data/</path><tmp_path>$WORK/tmp/</tmp_path>
  <user_files_path>$WORK/user_files/</user_files_path><format_schema_path>$WORK/format_schemas/</format_schema_path>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile><default_database>default</default_database>
  <timezone>UTC</timezone>
  <mark_cache_size>268435456</mark_cache_size>
</yandex>
CONF
cat > "$WORK/users.xml" <<CONF
<?xml version="1.0"?>
<yandex>
  <profiles><default></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
CONF
clickhouse-server --config-file="$WORK/config.xml" > /dev/null 2>&1 &
CH_PID=$!
sql() { python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(urllib.request.Request(sys.argv[1], data=sys.stdin.buffer.read())).read().decode(), end="")' "http://127.0.0.1:$PORT/"; }
for _ in $(seq 1 200); do echo "SELECT 1" | sql > /dev/null 2>&1 && break; sleep 0.1; done
VERSION=$(echo "SELECT version()" | sql)
# The schema as launchad prints it, one statement per request.
"$LAUNCHAD" fleet schema --table launchad.bench | python3 -c '
import sys, urllib.request
for s in sys.stdin.read().split(";\n"):
    s = "\n".join(l for l in s.splitlines() if not l.startswith("--")).strip()
    if s: urllib.request.urlopen(urllib.request.Request(sys.argv[1], data=s.encode())).read()
' "http://127.0.0.1:$PORT/"

# Writes COUNT record items (from FIRST on) as Outbox.enqueue(record:for:credentials:at:) does.
queue() {  # STATE FIRST COUNT
    python3 - "$1" "$2" "$3" "$PORT" <<'PY'
import json, os, random, sys, time, uuid
state, first, count, port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
items = os.path.join(state, "outbox", "items")
os.makedirs(items, mode=0o700, exist_ok=True)
rnd = random.Random(first)
now = int(time.time() * 1000)
for i in range(first, first + count):
    start = now - rnd.randrange(30 * 86400 * 1000)
    roll = rnd.random()
    outcome, error = ("completed", None) if roll < 0.92 else ("skipped", None) if roll < 0.97 else ("error", rnd.choice(["media_stalled", "media_truncated"]))
    shown = 5000 if outcome == "completed" else rnd.randrange(500, 5000)
    ts = lambda ms: time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(ms / 1000))
    row = {"id": str(uuid.UUID(int=rnd.getrandbits(128), version=4)), "screen": "screen-%016x" % (i % 2000 * 2654435761 % 2**64),
           "ad_id": "ad-%02d" % rnd.randrange(40), "creative_sha256": "%064x" % (rnd.randrange(40) * 0x9e3779b97f4a7c15 % 2**256),
           "started_at": ts(start), "ended_at": ts(start + shown + 40), "shown_ms": shown, "outcome": outcome, "error": error,
           "frames_shown": shown * 25 // 1000, "frames_dropped": rnd.choice([0, 0, 0, 0, 1, 2]), "av_offset_ms_max": rnd.randrange(0, 40),
           "muted": 0, "paused_ms": 0, "width": 1920, "height": 1080, "fullscreen": 1, "launchad_version": "0.1.0"}
    made = now - (first + count - i)
    name = "%015d-%05d-%06d-%08x.record" % (made, 4242, i % 1000000, rnd.randrange(2**32))
    item = {"url": "http://127.0.0.1:%s" % port, "event": "play", "made_ms": made, "expires_ms": made + 86400000, "attempts": 0,
            "next_ms": 0, "body": json.dumps(row, separators=(",", ":")), "batch": 1000, "clickhouse_table": "launchad.bench",
            "credentials": False}
    with open(os.path.join(items, name), "w") as f:
        f.write(json.dumps(item, separators=(",", ":")))
PY
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
echo "launchad: $LAUNCHAD outbox flush; clickhouse-server $VERSION on 127.0.0.1:$PORT; $N records, $CHUNK per flush, 1000 per INSERT"
STATE="$WORK/state"
flush_s=0; cpu_s=0; item_bytes=0; sent=0
while [ "$sent" -lt "$N" ]; do
    count=$(( N - sent < CHUNK ? N - sent : CHUNK ))
    queue "$STATE" "$sent" "$count"
    item_bytes=$(( item_bytes + $(du -sb "$STATE/outbox/items" | cut -f1) - $(stat -c %s "$STATE/outbox/items") ))
    start=$(date +%s.%N)
    /usr/bin/time -o "$WORK/cpu.txt" -f "%U %S" "$LAUNCHAD" outbox flush --state "$STATE" > "$WORK/status.json"
    end=$(date +%s.%N)
    flush_s=$(python3 -c "print($flush_s + $end - $start)")
    cpu_s=$(python3 -c "print($cpu_s + sum(map(float, '$(tail -1 "$WORK/cpu.txt")'.split())))")
    sent=$(( sent + count ))
    printf "\r%d records sent, %.1f s of flushing" "$sent" "$flush_s" >&2
done
echo >&2
python3 - "$WORK/status.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print("outbox after the last flush: pending %d, records %s" % (s["pending"], s["records"]))
PY
# The server alone, for scale: the same kind of rows straight from python, 100,000 per INSERT,
# the POSTs timed (making the bodies is not).
echo "CREATE TABLE launchad.direct AS launchad.bench" | sql
python3 - "$PORT" "$N" <<'PY'
import json, random, sys, time, urllib.parse, urllib.request, uuid
port, n = sys.argv[1], int(sys.argv[2])
cols = "id, screen, ad_id, creative_sha256, started_at, ended_at, shown_ms, outcome, error, frames_shown, frames_dropped, av_offset_ms_max, muted, paused_ms, width, height, fullscreen, launchad_version, sent_at"
url = "http://127.0.0.1:%s/?query=%s" % (port, urllib.parse.quote("INSERT INTO launchad.direct (%s) FORMAT JSONEachRow" % cols))
rnd, now, spent, size = random.Random(7), time.time(), 0.0, 100000
ts = lambda t: time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t))
for first in range(0, n, size):
    rows = []
    for i in range(first, min(n, first + size)):
        start = now - rnd.randrange(30 * 86400)
        rows.append(json.dumps({"id": str(uuid.UUID(int=rnd.getrandbits(128), version=4)), "screen": "screen-%016x" % (i % 2000 * 2654435761 % 2**64),
            "ad_id": "ad-%02d" % rnd.randrange(40), "creative_sha256": "%064x" % (rnd.randrange(40) * 0x9e3779b97f4a7c15 % 2**256),
            "started_at": ts(start), "ended_at": ts(start + 5), "shown_ms": 5000, "outcome": "completed", "error": None, "frames_shown": 125,
            "frames_dropped": rnd.choice([0, 0, 0, 1]), "av_offset_ms_max": rnd.randrange(40), "muted": 0, "paused_ms": 0, "width": 1920,
            "height": 1080, "fullscreen": 1, "launchad_version": "0.1.0", "sent_at": ts(now)}, separators=(",", ":")))
    body = ("\n".join(rows) + "\n").encode()
    t = time.time()
    urllib.request.urlopen(urllib.request.Request(url, data=body)).read()
    spent += time.time() - t
print("server alone: %d rows in %.1f s of INSERTs of %d rows = %.0f rows/s" % (n, spent, size, n / spent))
PY
rows=$(echo "SELECT count() FROM launchad.bench" | sql)
echo "OPTIMIZE TABLE launchad.bench FINAL" | sql
final=$(echo "SELECT count() FROM launchad.bench" | sql)
bytes=$(echo "SELECT sum(bytes_on_disk) FROM system.parts WHERE active AND database = 'launchad' AND table = 'bench'" | sql)
python3 - "$N" "$flush_s" "$cpu_s" "$rows" "$final" "$bytes" "$item_bytes" <<'PY'
import sys
n, wall, cpu, rows, final, disk, items = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
print("flush: %.1f s wall, %.1f s CPU (launchad), %.0f records/s" % (wall, cpu, n / wall))
print("table: %d rows inserted, %d after OPTIMIZE FINAL; %d bytes on disk = %.1f bytes per record" % (rows, final, disk, disk / final))
print("outbox item files: %.0f bytes per record" % (items / n))
PY
