#!/usr/bin/env bash
# Installs what is missing, builds textrender, and renders a mixed Chinese / English /
# emoji / Arabic / Hebrew paragraph to out/sample.png with the bundled fonts.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
scripts/setup.sh
swift build -c release --product textrender
mkdir -p out
sample='TextKitLite 把文字排版带到 Linux：HarfBuzz shaping, ICU line breaking, FreeType glyphs 🎉👍🏽. العربية تتصل حروفها، ועברית נכתבת מימין לשמאל. “全文”见下，#话题# @someone https://example.com/a/very/long/path'
.build/release/textrender render "$sample" --width 320 --scale 2 --output out/sample.png --json > out/sample.json
echo "wrote out/sample.png and out/sample.json"
