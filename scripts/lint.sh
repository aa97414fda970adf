#!/usr/bin/env bash
# Style and API documentation, checked by the toolchain's own tools:
# - `swift format lint --strict` over Sources, Tests and Fuzz with .swift-format (the code as
#   written: 4 spaces, 140 columns); in LaunchAdCore and LaunchAdPlayer their own .swift-format
#   also requires a /// comment on every public declaration;
# - DocC builds those two library products' documentation with every warning an error (a link to
#   a symbol that does not exist, a parameter documented under the wrong name).
# Needs a debug build (its .swiftmodule files); scripts/test.sh runs it after building.
# `swift format --in-place -r Sources Tests Fuzz` mends what the first check finds.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
swift format lint --strict -r Sources Tests Fuzz || { echo "lint: swift format lint found the above (swift format --in-place -r Sources Tests Fuzz mends most)" >&2; exit 1; }
# Every system library target's module map, so a new one (CGL, CXlib) needs no line here.
system_modules=()
for map in Sources/C*/module.modulemap; do system_modules+=(-I "$(dirname "$map")"); done
for module in LaunchAdCore LaunchAdPlayer; do
  mkdir -p "$out/$module"
  swift symbolgraph-extract -module-name "$module" -I .build/debug/Modules "${system_modules[@]}" -I /usr/include/SDL2 -target "$(uname -m)-unknown-linux-gnu" -minimum-access-level public \
    -output-dir "$out/$module"
  docc convert --additional-symbol-graph-dir "$out/$module" --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.launchad.$module" --output-dir "$out/$module.doccarchive" \
    --analyze --warnings-as-errors >"$out/$module.log" 2>&1 || { cat "$out/$module.log" >&2; echo "lint: $module's documentation has errors" >&2; exit 1; }
done
echo "lint: style clean; LaunchAdCore and LaunchAdPlayer fully documented, DocC clean"
