#!/usr/bin/env bash
# The feed viewer's figures for BENCHMARKS.md: an empty scroll (the window system's floor),
# then asynchronous and --sync drawing at 3,000, 8,000 and 15,000 points per second and with
# flings, over examples/photo-feed.jsonl repeated (new ids) into a long feed, under Xvfb.
# One JSON object per run on standard output, each preceded by a "# <run>" line.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
scripts/setup.sh --viewer
seconds="${SECONDS_PER_RUN:-10}"
cd Viewer
swift build -c release --product feedview >&2
xvfb=(xvfb-run -a -s "-screen 0 1280x1600x24")
bench=(.build/release/feedview ../examples/photo-feed.jsonl --repeat 100 --bench --seconds "$seconds")
run() { echo "# $*"; "${xvfb[@]}" "${bench[@]}" "$@"; }
run --empty --speed 8000
for speed in 3000 8000 15000; do
    run --speed "$speed"
    run --speed "$speed" --sync
done
run --fling --speed 8000
run --fling --speed 8000 --sync
