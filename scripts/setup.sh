#!/usr/bin/env bash
# Installs the Debian packages LaunchAd builds, runs and tests with, if any are missing.
# Quiet and quick when everything is already there. Needs root (or sudo) only when installing.
set -euo pipefail
export PATH="/opt/swift/usr/bin:$PATH"

build=(pkg-config libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev
       libavfilter-dev libsdl2-dev libsdl2-ttf-dev libcurl4-openssl-dev libsodium-dev fonts-dejavu-core)
run=(xvfb openbox xdotool)
# scripts/package.sh and package-test.sh (--package): the static build's libxml2, Debian's packaging tools.
package=(libxml2-dev dpkg-dev binutils xz-utils gcc lintian mmdebstrap)
# libx11-dev: the tests read their Xvfb's screen back with XGetImage (Sources/CXlib).
# clickhouse-server: the fleet tests start their own (docs/outbox.md, "Fleets").
# gdb: scripts/test-watchdog.sh prints a hung test's stacks.
# minisign: the signed-manifest tests make keys and signatures with it (docs/launch-and-cache.md).
# python3-xlib: the window managers that never map, or map late (HostDeadlineTests).
# libegl-dev, libopengl-dev: examples/gl-host's EGL context (launchad_attach_gl's tests, leak check, bench);
# libgl-dev: GLX for the careless GL host of GLCarelessHostTests;
# libgtk-4-dev, qt6-base-dev, libqt6opengl6-dev: examples/gtk4-host and qt6-host (their tests and the bench).
test=(ffmpeg nginx openssl minisign xvfb openbox xdotool xauth x11-utils libx11-dev valgrind gdb libegl-dev libopengl-dev libgl-dev libgtk-4-dev qt6-base-dev libqt6opengl6-dev python3-pil python3-xlib chromium weston cage xwayland jq zsh fish systemd groff-base
      prometheus prometheus-node-exporter clickhouse-server clickhouse-client)

want=("${build[@]}")
case "${1:-}" in
  --test) want+=("${test[@]}") ;;
  --run) want+=("${run[@]}") ;;
  --package) want+=("${package[@]}") ;;
esac
[ "${2:-}" = "--bench" ] && want+=(ffmpeg mpv time hyperfine)

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "setup: no swift toolchain on PATH (expected /opt/swift/usr/bin)" >&2; exit 1; }
