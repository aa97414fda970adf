#!/usr/bin/env bash
# Checks the public API documentation of the library products LaunchAdCore and LaunchAdPlayer:
# every public declaration has a /// comment (swift-format's AllPublicDeclarationsHaveDocumentation,
# switched on by the .swift-format in those two folders), and DocC builds their documentation with
# every warning an error (a link to a symbol that does not exist, a parameter documented under the
# wrong name). Needs a debug build (its .swiftmodule files); scripts/test.sh runs it after building.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
swift format lint --strict -r Sources/LaunchAdCore Sources/LaunchAdPlayer
for module in LaunchAdCore LaunchAdPlayer; do
  mkdir -p "$out/$module"
  swift symbolgraph-extract -module-name "$module" -I .build/debug/Modules -I Sources/CSDL2 -I Sources/CFFmpeg \
    -I Sources/CWayland -I /usr/include/SDL2 -target "$(uname -m)-unknown-linux-gnu" -minimum-access-level public \
    -output-dir "$out/$module"
  docc convert --additional-symbol-graph-dir "$out/$module" --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.launchad.$module" --output-dir "$out/$module.doccarchive" \
    --analyze --warnings-as-errors >"$out/$module.log" 2>&1 || { cat "$out/$module.log" >&2; echo "docs: $module's documentation has errors" >&2; exit 1; }
done
echo "docs: LaunchAdCore and LaunchAdPlayer fully documented, DocC clean"
