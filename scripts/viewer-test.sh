#!/usr/bin/env bash
# Builds the feed viewer (Viewer/, a package of its own over SDL2) and runs its tests under
# Xvfb: its screenshot compared pixel for pixel with `textrender feed`, a scripted fling
# (renders cancelled, no cell's pixels in another's frame), texture memory under its bound,
# closing, bad input. Then a headless screenshot and a short bench whose JSON is checked
# for its shape only (figures are in BENCHMARKS.md, never asserted).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
scripts/setup.sh --test --viewer

echo "== feed viewer" >&2
cd Viewer
# The reference drawing: textrender built from the same sources the viewer links.
swift build --product textrender
export TEXTRENDER="$PWD/.build/debug/textrender"
swift build --build-tests
xvfb=(xvfb-run -a -s "-screen 0 1280x2200x24")
timeout --kill-after=10 900 "${xvfb[@]}" swift test --skip-build

echo "== feed viewer: headless screenshot and bench smoke run" >&2
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"${xvfb[@]}" .build/debug/feedview ../examples/photo-feed.jsonl --now 2026-11-28T22:00:00Z --screenshot "$out/shot.png" --offset 500
test -s "$out/shot.png"
"${xvfb[@]}" .build/debug/feedview ../examples/photo-feed.jsonl --repeat 3 --bench --speed 3000 --seconds 1 > "$out/bench.json"
python3 - "$out/bench.json" <<'PY'
import json, sys
figures = json.load(open(sys.argv[1]))
for key in ("frames", "droppedFrames", "placeholderFrames", "textureBytesPeak", "peakRSSBytes"):
    assert isinstance(figures[key], int), key
for key in ("frameTimeMs", "mainThreadMs"):
    assert set(figures[key]) >= {"mean", "p50", "p90", "p99", "max"}, key
assert set(figures["renders"]) >= {"started", "finished", "cancelled"}
assert figures["frames"] > 0
print("bench smoke run:", figures["frames"], "frames", file=sys.stderr)
PY
