#!/usr/bin/env bash
# TextKitLite against Pango + cairo, one core each, on the benchmark feed's 2,000 posts and the
# bundled fonts: Pango layout and Pango + cairo A8 drawing of each body against TextKitLite's
# measuring and its layout + drawing at 1x of the same body alone, and of the whole cell; drawing
# alone of layouts made ahead on both sides; whole `textrender feed --scale 1 --jobs 1` processes
# writing to /dev/shm (gray PGM, color PPM and color PNG cells); RGBA against gray and against
# Pango + cairo ARGB32 (PangoReport; see ../BENCHMARKS.md).
#
#   Benchmarks/pango.sh [--rounds N] [--baseline PATH-TO-AN-OLDER-textrender]
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$PATH:/opt/swift/usr/bin"
../scripts/setup.sh --bench   # libpango1.0-dev, libcairo2-dev: the peer only, never the library
(cd .. && swift build -c release --product textrender >&2)
swift build -c release --product PangoReport >&2
exec .build/release/PangoReport --textrender ../.build/release/textrender "$@"
