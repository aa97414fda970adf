#!/usr/bin/env bash
# Builds the embedding examples into .build/examples/ (issue 32): the library as it is installed
# (lib/liblaunchad.so.0, lib/liblaunchad.so, include/launchad.h, launchad.pc), sdl-host (C,
# SDL2), x11-host (C, plain Xlib), repeat-host (C: an ad made and destroyed N times, for valgrind and the bench),
# swift-host (the Swift API); python-host runs from examples/python-host/host.py with
# LAUNCHAD_LIBRARY pointing at lib/liblaunchad.so.0.
#   scripts/build-examples.sh [--release]   (debug by default; --skip-build uses what is built)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
config=debug
build=1
scratch=()
while [ $# -gt 0 ]; do
  case "$1" in
    --release) config=release ;;
    --skip-build) build=0 ;;
    # The packaged build (scripts/package.sh: .build/static, the Swift runtime linked in).
    --scratch-path) scratch=(--scratch-path "${2:?--scratch-path needs a folder}"); shift ;;
    *) echo "build-examples: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [ $build -eq 1 ]; then
  swift build -c "$config" "${scratch[@]}" --product LaunchAdEmbed >&2
  swift build -c "$config" "${scratch[@]}" --product launchad-swift-host >&2
fi
bin=$(swift build -c "$config" "${scratch[@]}" --show-bin-path)
out=.build/examples
mkdir -p "$out/lib" "$out/include" "$out/pkgconfig"
# Test processes running side by side build the examples at once and run them meanwhile: one
# build at a time, and each file put in place by a rename, never rewritten where it stands (cp
# onto a library a running host has mapped truncates it under that host: SIGBUS).
exec 9>"$out/.lock"
flock 9
place() { cp -f "$1" "$2.new.$$" && mv -f "$2.new.$$" "$2"; }
place "$bin/libLaunchAdEmbed.so" "$out/lib/liblaunchad.so.0"
ln -sf liblaunchad.so.0 "$out/lib/liblaunchad.so"
place Sources/CLaunchAd/include/launchad.h "$out/include/launchad.h"
version=$(sed -n 's/.*static let versionString = "\([^"]*\)".*/\1/p' Sources/LaunchAdCore/Version.swift)
sed -e "s|@PREFIX@|$PWD/$out|" -e "s|@LIBDIR@|$PWD/$out/lib|" -e "s|@INCLUDEDIR@|$PWD/$out/include|" -e "s|@VERSION@|$version|" \
  packaging/launchad.pc.in > "$out/pkgconfig/launchad.pc"
# The C host builds as an application would: pkg-config for launchad and SDL2.
PKG_CONFIG_PATH="$out/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
  gcc -std=c11 -Wall -Wextra -Werror -O2 examples/sdl-host/main.c -o "$out/sdl-host" \
  $(PKG_CONFIG_PATH="$out/pkgconfig" pkg-config --cflags --libs launchad sdl2) -Wl,-rpath,'$ORIGIN/lib'
# The Xlib host: no SDL of its own, its window given to launchad by its X11 id.
gcc -std=c11 -Wall -Wextra -Werror -O2 examples/x11-host/main.c -o "$out/x11-host" \
  $(PKG_CONFIG_PATH="$out/pkgconfig" pkg-config --cflags --libs launchad x11) -Wl,-rpath,'$ORIGIN/lib'
gcc -std=c11 -Wall -Wextra -Werror -O2 examples/repeat-host/main.c -o "$out/repeat-host" \
  $(PKG_CONFIG_PATH="$out/pkgconfig" pkg-config --cflags --libs launchad) -Wl,-rpath,'$ORIGIN/lib'
[ ! -x "$bin/launchad-swift-host" ] || place "$bin/launchad-swift-host" "$out/swift-host"
echo "build-examples: $out/sdl-host, $out/x11-host, $out/swift-host, $out/lib/liblaunchad.so.0 (python: LAUNCHAD_LIBRARY=$out/lib/liblaunchad.so.0 examples/python-host/host.py FILE)" >&2
