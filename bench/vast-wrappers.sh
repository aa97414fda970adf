#!/usr/bin/env bash
# What a VAST tag costs before the first frame: plays the same 2 s 320x240 clip from a local
# nginx N times each, interleaved, (a) as `play URL` and (b) as `play --vast` through a chain of
# 5 wrappers to an InLine whose 12 tracking URIs point at the same nginx (answering 204), and
# reports medians of: the time to resolve the chain (the `vast_ad` event's t_ms less the `vast`
# event's, which follows the first fetch), the first frame (`first_frame` t_ms, ms since process
# start) and the frames dropped (the engine's count on `end`, or a tag's `ad_end`).
#
#   bash bench/vast-wrappers.sh [RUNS]        (default 9; LAUNCHAD_BIN, default .build/release/launchad)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
runs="${1:-9}"
bin="${LAUNCHAD_BIN:-$root/.build/release/launchad}"
[ -x "$bin" ] || (cd "$root" && swift build -c release --product launchad >/dev/null)
work="$(mktemp -d)"
trap 'kill "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/www" "$work/logs" "$work/tmp"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
cat > "$work/nginx.conf" <<CONF
$( [ "$(id -u)" = 0 ] && echo "user root;" )
worker_processes 1; pid $work/nginx.pid; error_log $work/logs/error.log;
events { worker_connections 64; }
http { access_log off; client_body_temp_path $work/tmp/b; proxy_temp_path $work/tmp/p; fastcgi_temp_path $work/tmp/f;
  uwsgi_temp_path $work/tmp/u; scgi_temp_path $work/tmp/s; types { video/mp4 mp4; }
  server { listen 127.0.0.1:$port; root $work/www; location /track/ { return 204; } } }
CONF
ffmpeg -y -hide_banner -loglevel error -f lavfi -i testsrc2=s=320x240:r=25:d=2 -f lavfi -i sine=d=2 \
  -c:v libx264 -pix_fmt yuv420p -c:a aac -movflags +faststart "$work/www/ad.mp4"
ev() { for e in creativeView start firstQuartile midpoint thirdQuartile complete pause resume mute unmute skip closeLinear; do
  echo "<Tracking event=\"$e\"><![CDATA[$base/track/$1/$e?cb=[CACHEBUSTING]&ts=[TIMESTAMP]]]></Tracking>"; done; }
cat > "$work/www/inline.xml" <<XML
<VAST version="4.2"><Ad id="in"><InLine><AdSystem>bench</AdSystem><AdTitle>bench</AdTitle>
<Impression><![CDATA[$base/track/in/impression?cb=[CACHEBUSTING]]]></Impression>
<Creatives><Creative><Linear><Duration>00:00:02</Duration><TrackingEvents>$(ev in)</TrackingEvents>
<MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="240"><![CDATA[$base/ad.mp4]]></MediaFile></MediaFiles>
</Linear></Creative></Creatives></InLine></Ad></VAST>
XML
next="$base/inline.xml"
for d in 5 4 3 2 1; do
  cat > "$work/www/w$d.xml" <<XML
<VAST version="4.2"><Ad id="w$d"><Wrapper><AdSystem>bench</AdSystem><VASTAdTagURI><![CDATA[$next]]></VASTAdTagURI>
<Impression><![CDATA[$base/track/w$d/impression]]></Impression><Creatives><Creative><Linear><TrackingEvents>$(ev w$d)</TrackingEvents></Linear></Creative></Creatives></Wrapper></Ad></VAST>
XML
  next="$base/w$d.xml"
done
/usr/sbin/nginx -p "$work" -c "$work/nginx.conf" -e "$work/logs/error.log"
sleep 0.3
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
field() { python3 -c "import json,sys
ev={}
for l in open(sys.argv[1]):
    try: o=json.loads(l)
    except Exception: continue
    ev.setdefault(o['event'],o)
def g(n,k='t_ms'): return ev.get(n,{}).get(k)
r=g('vast_ad'); v=g('vast')
fd=g('ad_end','frames_dropped') if 'ad_end' in ev else g('end','frames_dropped')
print(g('first_frame'), (r-v) if r is not None and v is not None else '-', fd if fd is not None else '-')" "$1"; }
: > "$work/rows"
for i in $(seq 1 "$runs"); do
  "$bin" play "$base/ad.mp4" --size 320x240 --transition none --state "$work/state" > "$work/plain.jsonl" 2>/dev/null || true
  echo "plain $(field "$work/plain.jsonl")" >> "$work/rows"
  "$bin" play --vast "$base/w1.xml" --size 320x240 --transition none --state "$work/state" > "$work/vast.jsonl" 2>/dev/null || true
  echo "vast $(field "$work/vast.jsonl")" >> "$work/rows"
done
python3 - "$work/rows" "$runs" <<'PY'
import sys, statistics as st
rows=[l.split() for l in open(sys.argv[1])]
def med(kind, col):
    v=[float(r[col]) for r in rows if r[0]==kind and r[col] not in ('-','None')]
    return st.median(v) if v else None
print(f"runs per case: {sys.argv[2]}")
print("| case | first frame ms (median) | chain resolved in ms (median) | frames dropped (median) |")
print("|---|---|---|---|")
for k,name in (('plain','play URL'),('vast','play --vast, 5 wrappers + 78 tracking URIs')):
    print(f"| {name} | {med(k,1)} | {med(k,2) if med(k,2) is not None else '-'} | {med(k,3) if med(k,3) is not None else '-'} |")
PY
