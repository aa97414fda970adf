#!/usr/bin/env bash
# Proves the .deb on a clean system: makes a minimal Debian 12 root with mmdebstrap from the
# Debian mirrors this machine's apt uses, installs the package there with apt (its dependencies
# resolved by apt), and inside it, where there is no Swift toolchain: `launchad --version`,
# `probe` and `validate` of the shipped sample ad, `play` of it under Xvfb to an `end` event with
# outcome `completed`, `man launchad-play`, `systemd-analyze verify` of every unit, then
# docs/kiosks.md's set-up as written (the kiosk user, /etc/default/launchad, the units enabled)
# to a metrics file the kiosk user writes and the node exporter serves; and the embedding
# library's packages (liblaunchad0, liblaunchad-dev, beside DEB): an application built with
# `pkg-config launchad` shows the sample ad through the installed library, headless.
# Anything in the root that needs a file from outside it (a library under /opt/swift, a missing
# .so, a missing command in a unit) fails the run.
#
#   bash scripts/package-test.sh [DEB]    (default: build one with scripts/package.sh --no-lintian)
#
# Needs root (mmdebstrap's root mode and chroot) and the network to the mirror. Prints how long
# each stage took.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
die() { echo "package-test: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (mmdebstrap --mode=root, chroot)"
command -v mmdebstrap >/dev/null || die "missing mmdebstrap (apt install mmdebstrap, or bash scripts/setup.sh --package)"
start=$SECONDS
stage() { echo "package-test: $1 ($((SECONDS - start)) s so far)" >&2; }

deb="${1:-}"
if [ -z "$deb" ]; then
  stage "building the package"
  deb=$(bash "$here/package.sh" --no-lintian --out "$(mktemp -d)")
fi
[ -f "$deb" ] || die "no package at $deb"

# The mirrors apt uses here: every deb822 source with Debian's suites (bookworm*), as one-line
# entries; third-party sources (cloud SDKs, nodesource) are left out.
mirrors=()
while IFS= read -r line; do mirrors+=("$line"); done < <(
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk 'BEGIN { RS = ""; FS = "\n" }
      { uris = ""; suites = ""; comps = ""; types = ""
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^URIs:/) { uris = $i; sub(/^URIs: */, "", uris) }
          if ($i ~ /^Suites:/) { suites = $i; sub(/^Suites: */, "", suites) }
          if ($i ~ /^Components:/) { comps = $i; sub(/^Components: */, "", comps) }
          if ($i ~ /^Types:/) { types = $i; sub(/^Types: */, "", types) }
        }
        if (types !~ /deb/ || suites !~ /bookworm/) next
        n = split(suites, s, " ")
        for (j = 1; j <= n; j++) print "deb " uris " " s[j] " " comps
      }' "$f"
  done
  [ -f /etc/apt/sources.list ] && grep -E '^deb .* bookworm' /etc/apt/sources.list || true)
[ ${#mirrors[@]} -gt 0 ] || die "found no Debian 12 (bookworm) source in /etc/apt/sources.list*"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$deb" "$work/launchad.deb"
# The embedding library's packages, written beside launchad's by package.sh, and an example host.
libdebs=$(dirname "$deb")
cp "$libdebs"/liblaunchad0_*.deb "$work/liblaunchad0.deb" || die "no liblaunchad0 package beside $deb"
cp "$libdebs"/liblaunchad-dev_*.deb "$work/liblaunchad-dev.deb" || die "no liblaunchad-dev package beside $deb"
cp "$here/../examples/repeat-host/main.c" "$work/repeat-host.c"
cat > "$work/inside.sh" <<'EOF'
#!/bin/sh
# Runs inside the clean root, as root, after apt installed launchad.deb.
set -eu
fail() { echo "package-test (inside): $*" >&2; exit 1; }
ex=/usr/share/doc/launchad/examples
[ ! -e /opt/swift ] || fail "/opt/swift exists in the clean root"
command -v swift >/dev/null && fail "a swift command is on PATH in the clean root"
ldd /usr/bin/launchad > /tmp/ldd.txt
grep -q "not found" /tmp/ldd.txt && { cat /tmp/ldd.txt >&2; fail "launchad needs a library the package does not depend on"; }
grep -qi swift /tmp/ldd.txt && fail "launchad loads a Swift library"

echo "== launchad --version"
launchad --version | tee /tmp/version.txt
grep -q "^launchad [0-9]" /tmp/version.txt && grep -q "^FFmpeg " /tmp/version.txt \
  && grep -q "^SDL " /tmp/version.txt && grep -q "^libcurl " /tmp/version.txt || fail "--version lacks a line"

echo "== launchad probe"
launchad probe "$ex/sample-ad.mp4" > /tmp/probe.json || fail "probe exited $?"
grep -q '"codec":"h264"' /tmp/probe.json || fail "probe did not see the H.264 stream: $(head -c 300 /tmp/probe.json)"

echo "== launchad validate"
launchad validate "$ex/sample-ad.mp4" || fail "validate of the sample ad exited $?"

echo "== launchad play (Xvfb)"
SDL_AUDIODRIVER=dummy xvfb-run -a -s "-screen 0 1280x1024x24" \
  launchad play "$ex/sample-ad.mp4" --events /tmp/events.jsonl || fail "play exited $?"
tail -n 1 /tmp/events.jsonl
[ "$(grep -c '"event":"end"' /tmp/events.jsonl)" = 1 ] || fail "not exactly one end event"
grep '"event":"end"' /tmp/events.jsonl | grep -q '"outcome":"completed"' || fail "the ad did not complete"
grep -q '"event":"first_frame"' /tmp/events.jsonl || fail "no first_frame event"

echo "== man launchad-play"
MANWIDTH=100 man -P cat launchad-play > /tmp/man.txt 2>/tmp/man.err || { cat /tmp/man.err >&2; fail "man launchad-play failed"; }
grep -q -- "--skip-after" /tmp/man.txt || fail "man launchad-play does not list --skip-after"
man -w launchad launchad-launch launchad-validate launchad-schedule >/dev/null || fail "a man page is missing"
MANWIDTH=100 man -P cat 7 launchad-events 2>/dev/null | grep -q "prefetch_done" || fail "man 7 launchad-events does not list prefetch_done"
MANWIDTH=100 man -P cat launchad-validate 2>/dev/null | grep -q "^EXAMPLES" || fail "man launchad-validate has no EXAMPLES"
for page in README.md kiosks.md.gz; do [ -f "/usr/share/doc/launchad/$page" ] || fail "no /usr/share/doc/launchad/$page"; done

echo "== systemd-analyze verify"
for unit in /lib/systemd/system/launchad-*.service /usr/lib/systemd/user/launchad-*; do
  out=$(systemd-analyze verify "$unit" 2>&1) || fail "$unit: $out"
  # verify exits 0 on warnings (an unknown key, a missing command or man page): any output fails.
  [ -z "$out" ] || fail "$unit: $out"
  echo "$unit: ok"
done
echo "== docs/kiosks.md as written: steps 2-5 (the image variant of 4), then step 6's checks"
getent group launchad >/dev/null || fail "the package made no group launchad"
useradd -m kiosk
for group in video render input audio launchad; do
  if getent group "$group" >/dev/null; then usermod -aG "$group" kiosk; fi
done
id kiosk | grep -q '(launchad)' || fail "kiosk is not in the group launchad: $(id kiosk)"
cp /usr/share/doc/launchad/examples/launchad.default /etc/default/launchad
metrics=/var/lib/launchad/metrics/launchad.prom
[ "$(readlink /var/lib/prometheus/node-exporter/launchad.prom)" = "$metrics" ] || fail "no link to $metrics in the node exporter's folder"
sed -i "s|^LAUNCHAD_OPTIONS=.*|LAUNCHAD_OPTIONS=--rotate 90 --metrics $metrics|" /etc/default/launchad
mkdir -p /var/lib/systemd/linger && touch /var/lib/systemd/linger/kiosk
systemctl --global enable launchad-prefetch.timer launchad-outbox-flush.timer
systemctl enable launchad-cage.service
[ -L /etc/systemd/system/graphical.target.wants/launchad-cage.service ] || fail "launchad-cage.service is not enabled"
[ -L /etc/systemd/user/timers.target.wants/launchad-prefetch.timer ] || fail "the prefetch timer is not enabled"
out=$(systemd-analyze verify /lib/systemd/system/launchad-cage.service 2>&1) && [ -z "$out" ] || fail "verify: $out"
# What launch --metrics writes, as the kiosk user, into the folder the node exporter reads.
runuser -u kiosk -- env SDL_AUDIODRIVER=dummy xvfb-run -a -s "-screen 0 640x480x24" \
  launchad play "$ex/sample-ad.mp4" --max-duration 1 --metrics "$metrics" --events /dev/null || fail "play --metrics as kiosk exited $?"
[ "$(stat -c %U "$metrics")" = kiosk ] || fail "$metrics is not the kiosk's"
prometheus-node-exporter --collector.disable-defaults --collector.textfile \
  --collector.textfile.directory=/var/lib/prometheus/node-exporter --web.listen-address=127.0.0.1:19377 2>/tmp/exporter.log &
exporter=$!
tries=0
until curl -fsS http://127.0.0.1:19377/metrics > /tmp/metrics.txt 2>/dev/null; do
  tries=$((tries + 1)); [ "$tries" -lt 100 ] || { kill "$exporter"; fail "the node exporter did not answer: $(tail -3 /tmp/exporter.log)"; }
  sleep 0.1
done
kill "$exporter"
grep -q '^launchad_plays_total{ad="sample-ad.mp4",outcome="capped"} 1' /tmp/metrics.txt \
  || fail "the node exporter does not serve launchad_plays_total: $(grep -c launchad_ /tmp/metrics.txt) launchad lines"
echo "kiosk walk: ok ($(grep -c '^launchad_' /tmp/metrics.txt) launchad_ lines served by the node exporter)"

echo "== liblaunchad: an application built with pkg-config shows the ad through it"
ldd /usr/lib/*/liblaunchad.so.0 > /tmp/libldd.txt
grep -q "not found" /tmp/libldd.txt && { cat /tmp/libldd.txt >&2; fail "liblaunchad needs a library its package does not depend on"; }
grep -qi swift /tmp/libldd.txt && fail "liblaunchad loads a Swift library"
cc /tmp/repeat-host.c -o /tmp/repeat-host $(pkg-config --cflags --libs launchad) || fail "an application does not build against liblaunchad-dev"
SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy /tmp/repeat-host 2 "$ex/sample-ad.mp4" --max-duration 1 > /tmp/repeat.txt 2>&1 \
  || { cat /tmp/repeat.txt >&2; fail "repeat-host over the installed library failed"; }
echo "liblaunchad: ok ($(grep -c . /tmp/repeat.txt) lines from repeat-host, two ads shown)"
echo "package-test: all passed inside the clean root"
EOF
chmod +x "$work/inside.sh"

# xvfb/xauth to play, man-db to read the pages, systemd to verify the units, the programs the
# kiosk units start (xinit, weston, cage; verify checks that they exist), and the node exporter
# (installed before launchad, as docs/kiosks.md says) with curl to read what it serves.
stage "mmdebstrap bookworm from: ${mirrors[*]}"
mmdebstrap --mode=root --variant=apt --format=directory \
  --include=xvfb,xauth,man-db,systemd,xinit,openbox,weston,cage,xwayland,prometheus-node-exporter,curl,gcc,libc6-dev,pkg-config \
  --customize-hook="copy-in $work/launchad.deb $work/liblaunchad0.deb $work/liblaunchad-dev.deb $work/repeat-host.c $work/inside.sh /tmp" \
  --customize-hook='chroot "$1" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends /tmp/launchad.deb /tmp/liblaunchad0.deb /tmp/liblaunchad-dev.deb' \
  --customize-hook='chroot "$1" /tmp/inside.sh' \
  bookworm "$work/rootfs" "${mirrors[@]}" || die "failed (see above)"
stage "done"
echo "package-test: passed in $((SECONDS - start)) s" >&2
