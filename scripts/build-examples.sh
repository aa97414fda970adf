#!/usr/bin/env bash
# Builds the embedding examples into .build/examples/ (issue 32): the library as it is installed
# (lib/liblaunchad.so.0, lib/liblaunchad.so, include/launchad.h, launchad.pc), sdl-host (C,
# SDL2), x11-host (C, plain Xlib), repeat-host (C: an ad made and destroyed N times, for valgrind and the bench),
# gl-host (C: EGL and a framebuffer object of its own, launchad_attach_gl; for the tests, valgrind and the bench),
# gtk4-host (C, GTK 4), qt6-host (C++, Qt 6 Widgets),
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
# Nothing to do when the library and every example's source are what the last build was made from.
stamp=$(cat "$bin/libLaunchAdEmbed.so" Sources/CLaunchAd/include/launchad.h packaging/launchad.pc.in "$0" examples/*/main.* \
  "$bin/launchad-swift-host" 2>/dev/null | sha256sum | cut -c1-64)
if [ "$(cat "$out/.stamp" 2>/dev/null)" = "$stamp" ]; then
  echo "build-examples: $out is up to date" >&2
  exit 0
fi
place() { cp -f "$1" "$2.new.$$" && mv -f "$2.new.$$" "$2"; }
# The hosts are linked here, then renamed into $out (a host half written is never run).
stage="$out/.stage.$$"
rm -rf "$stage" && mkdir -p "$stage"
trap 'rm -rf "$stage"' EXIT
place "$bin/libLaunchAdEmbed.so" "$out/lib/liblaunchad.so.0"
ln -sf liblaunchad.so.0 "$out/lib/liblaunchad.so"
place Sources/CLaunchAd/include/launchad.h "$out/include/launchad.h"
version=$(sed -n 's/.*static let versionString = "\([^"]*\)".*/\1/p' Sources/LaunchAdCore/Version.swift)
sed -e "s|@PREFIX@|$PWD/$out|" -e "s|@LIBDIR@|$PWD/$out/lib|" -e "s|@INCLUDEDIR@|$PWD/$out/include|" -e "s|@VERSION@|$version|" \
  packaging/launchad.pc.in > "$out/pkgconfig/launchad.pc"
# The C host builds as an application would: pkg-config for launchad and SDL2.
PKG_CONFIG_PATH="$out/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
  gcc -std=c11 -Wall -Wextra -Werror -O2 examples/sdl-host/main.c -o "$stage/sdl-host" \
  $(PKG_CONFIG_PATH="$out/pkgconfig" pkg-config --cflags --libs launchad sdl2) -Wl,-rpath,'$ORIGIN/lib'
# The Xlib host: no SDL of its own, its window given to launchad by its X11 id.
gcc -std=c11 -Wall -Wextra -Werror -O2 examples/x11-host/main.c -o "$stage/x11-host" \
  $(PKG_CONFIG_PATH="$out/pkgconfig" pkg-config --cflags --libs launchad x11) -Wl,-rpath,'$ORIGIN/lib'
gcc -std=c11 -Wall -Wextra -Werror -O2 examples/repeat-host/main.c -o "$stage/repeat-host" \
  $(PKG_CONFIG_PATH="$out/pkgconfig" pkg-config --cflags --libs launchad) -Wl,-rpath,'$ORIGIN/lib'
# The bare OpenGL host (EGL, its own framebuffer object; launchad_attach_gl): no toolkit, no display.
gcc -std=c11 -Wall -Wextra -Werror -O2 examples/gl-host/main.c -o "$stage/gl-host" \
  $(PKG_CONFIG_PATH="$out/pkgconfig" pkg-config --cflags --libs launchad egl opengl) -Wl,-rpath,'$ORIGIN/lib'
# The toolkit hosts (issue 39): GTK 4 (a GtkGLArea, or --buffer into a GdkMemoryTexture) and Qt 6
# Widgets (a QOpenGLWidget, or --buffer into a QImage), each built as an application of that toolkit
# would be. Skipped, with a note, where the toolkit's -dev package is missing.
if pkg-config --exists gtk4 epoxy; then
  gcc -std=c11 -Wall -Wextra -Werror -O2 examples/gtk4-host/main.c -o "$stage/gtk4-host" \
    $(PKG_CONFIG_PATH="$out/pkgconfig" pkg-config --cflags --libs launchad gtk4 epoxy) -Wl,-rpath,'$ORIGIN/lib'
else
  echo "build-examples: no gtk4-host (install libgtk-4-dev: bash scripts/setup.sh --test)" >&2
fi
if pkg-config --exists Qt6Widgets Qt6OpenGLWidgets; then
  g++ -std=c++17 -fPIC -Wall -Wextra -Werror -O2 examples/qt6-host/main.cpp -o "$stage/qt6-host" \
    $(PKG_CONFIG_PATH="$out/pkgconfig" pkg-config --cflags --libs launchad Qt6Widgets Qt6OpenGLWidgets) -Wl,-rpath,'$ORIGIN/lib'
else
  echo "build-examples: no qt6-host (install qt6-base-dev and libqt6opengl6-dev: bash scripts/setup.sh --test)" >&2
fi
for built in "$stage"/*; do mv -f "$built" "$out/"; done
[ ! -x "$bin/launchad-swift-host" ] || place "$bin/launchad-swift-host" "$out/swift-host"
echo "$stamp" >"$out/.stamp"
echo "build-examples: $out/sdl-host, $out/x11-host, $out/gl-host, $out/gtk4-host, $out/qt6-host, $out/swift-host, $out/lib/liblaunchad.so.0 (python: LAUNCHAD_LIBRARY=$out/lib/liblaunchad.so.0 examples/python-host/host.py FILE)" >&2
