#!/usr/bin/env bash
# Installs what is missing and runs the test suite: the full suite, then the concurrency,
# feed and rendering suites under Thread Sanitizer and Address Sanitizer, bounded fuzz
# runs (text for 60 s, then damaged fonts for 30 s), the bounded-memory check (peak
# RSS of `textrender measure` over 20,000 and 200,000 posts), and Spark and GNU parallel
# measuring 20,000 posts byte for byte as one `textrender measure` does; the feed viewer's tests
# run under Xvfb (scripts/viewer-test.sh). TEXTKITLITE_QUICK=1 runs
# the plain suite only.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
scripts/setup.sh --test --viewer

echo "== tests" >&2
swift build --build-tests
swift test --skip-build

echo "== output schemas" >&2
# Debian's python3 has the python3-jsonschema that scripts/setup.sh installs; another python3
# first on PATH may not.
python=python3
/usr/bin/python3 -c "import jsonschema" 2>/dev/null && python=/usr/bin/python3
"$python" scripts/check-schemas.py .build/debug/textrender

echo "== documentation" >&2
scripts/docs.sh

echo "== HTTP service" >&2
scripts/service-test.sh

echo "== feed viewer" >&2
scripts/viewer-test.sh

if [ "${TEXTKITLITE_QUICK:-0}" = "1" ]; then exit 0; fi

sanitized_suites="Async|FeedCell|Measure|Render|InkBounds|Shaping|UTF16Transcoding|LayoutTests|LineBreaking|BoundedCache|LoneGlyph|PNG|Emoticon|Attachment|TextStyle|HitTesting"
# LeakSanitizer is off for the suites: it reports allocations inside XCTest and Foundation's
# Process (the toolchain's libraries) that the project cannot free. It is on for the
# `textrender` runs of scripts/leak-check.sh; memory bounds are tested apart.
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
for sanitizer in thread address; do
    echo "== tests under the ${sanitizer} sanitizer" >&2
    swift build --build-tests --sanitize="$sanitizer" --scratch-path ".build-$sanitizer"
    swift test --skip-build --sanitize="$sanitizer" --scratch-path ".build-$sanitizer" --filter "$sanitized_suites"
done
echo "== leaks across the C libraries (textrender under LeakSanitizer)" >&2
scripts/leak-check.sh .build-address/debug/textrender

if [ -x scripts/fuzz.sh ]; then
    echo "== fuzzing (${TEXTKITLITE_FUZZ_SECONDS:-60} s)" >&2
    # A fixed seed: the run explores the same inputs each time (cut short on a slower
    # machine), so a red CI run reproduces with this same command.
    FUZZ_FLAGS="-seed=${TEXTKITLITE_FUZZ_SEED:-1} ${FUZZ_FLAGS:-}" scripts/fuzz.sh "${TEXTKITLITE_FUZZ_SECONDS:-60}"
    echo "== font fuzzing (${TEXTKITLITE_FONT_FUZZ_SECONDS:-30} s)" >&2
    FUZZ_FLAGS="-seed=${TEXTKITLITE_FUZZ_SEED:-1} ${FUZZ_FLAGS:-}" scripts/fuzz.sh --fonts "${TEXTKITLITE_FONT_FUZZ_SECONDS:-30}"
fi

echo "== bounded memory" >&2
MAX_RATIO=1.5 scripts/memory.sh 20000 200000

echo "== Spark and GNU parallel against measure" >&2
scripts/spark-test.sh
