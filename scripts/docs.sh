#!/usr/bin/env bash
# Builds the DocC documentation of the library modules (TextKitLite, TextKitLiteFeed) into
# out/docs/<Module>.doccarchive with swift-docc-plugin, and fails on any DocC warning (a link
# that does not resolve, an undocumented parameter). The articles' code is checked apart:
# Tests/DocumentationTests runs it, and checks it matches the articles.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"

out=out/docs
mkdir -p "$out"
for target in TextKitLite TextKitLiteFeed; do
    echo "== documentation: $target" >&2
    rm -rf "${out:?}/$target.doccarchive"
    swift package --allow-writing-to-directory "$out" generate-documentation --target "$target" \
        --warnings-as-errors --output-path "$out/$target.doccarchive"
done
