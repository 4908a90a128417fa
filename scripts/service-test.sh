#!/usr/bin/env bash
# Builds the HTTP service (Service/, a package of its own) and runs its tests: a server on
# a free loopback port answering real HTTP requests, its measurements compared byte for
# byte with the main package's `textrender measure`, its PNGs with `textrender render`;
# then the same tests under Thread Sanitizer (TEXTKITLITE_QUICK=1 skips that run).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
scripts/setup.sh --test

echo "== HTTP service" >&2
# The command-line tool the service's answers are compared with.
swift build --product textrender
export TEXTRENDER="$PWD/.build/debug/textrender"
cd Service
swift build --build-tests
# A crash under a sanitizer can leave the test process hanging: bound each run.
timeout --kill-after=10 900 swift test --skip-build

if [ "${TEXTKITLITE_QUICK:-0}" = "1" ]; then exit 0; fi
echo "== HTTP service under the thread sanitizer" >&2
swift build --build-tests --sanitize=thread --scratch-path .build-thread
# One test at a time: the deadline tests (2-3 s timeouts) raced each other's 40 MB bodies
# under the sanitizer on a 2-core machine, and the run takes no longer (170 s either way).
TSAN_OPTIONS="suppressions=$PWD/tsan-suppressions.txt${TSAN_OPTIONS:+ $TSAN_OPTIONS}" \
    TEXTKITLITE_SANITIZED=thread timeout --kill-after=10 900 swift test --skip-build --sanitize=thread --scratch-path .build-thread \
    --no-parallel
