#!/usr/bin/env bash
# Builds the libFuzzer target in Fuzz/ (ASan + libFuzzer, release) and runs it for a
# bounded time over the seed corpus in Fuzz/corpus/.
#
#   scripts/fuzz.sh [SECONDS]        default 60; extra libFuzzer flags in $FUZZ_FLAGS
#   scripts/fuzz.sh --replay FILE…   run saved inputs once (crash reproducers, Fuzz/corpus/*)
#
# Exits non-zero when an input breaks an invariant, traps, trips AddressSanitizer, runs
# over 10 s or over 2 GB; the input is saved as Fuzz/.build/artifacts/crash-<sha1> (or
# timeout-…, oom-…). New coverage goes to Fuzz/.build/fuzz-corpus/ and is reused by later
# runs. Turn a crash into a regression test in Tests/TextKitLiteTests/HostileInputTests.swift.
# Per-input leak checks are off (-detect_leaks=0): the font, word and glyph caches make
# every input look like a leak candidate, and rerunning each one halves the speed.
set -euo pipefail
caller="$PWD"
cd "$(dirname "$0")/../Fuzz"
export PATH="$PATH:/opt/swift/usr/bin"

swift build -c release --scratch-path .build/fuzzer --product LayoutFuzzer \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -use-ld=lld
fuzzer=.build/fuzzer/release/LayoutFuzzer

# Swift's crash backtracer and AddressSanitizer do not mix (ASan reports the backtracer's
# own memory reads); libFuzzer prints the stack itself.
export SWIFT_BACKTRACE=enable=no
# Same hash seeds in every process: with a fixed -seed, a run explores the same inputs.
export SWIFT_DETERMINISTIC_HASHING=1

if [[ "${1:-}" == "--replay" ]]; then
    shift
    inputs=()
    for input in "$@"; do [[ "$input" == [/-]* ]] && inputs+=("$input") || inputs+=("$caller/$input"); done
    exec "$fuzzer" -rss_limit_mb=2048 -timeout=10 "${inputs[@]}"
fi

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || (( seconds < 1 )); then
    echo "usage: scripts/fuzz.sh [SECONDS] | --replay FILE..." >&2
    exit 64
fi
mkdir -p .build/fuzz-corpus .build/artifacts
# shellcheck disable=SC2086  # FUZZ_FLAGS is a list of flags
"$fuzzer" .build/fuzz-corpus corpus \
    -dict=unicode.dict -max_len=4096 -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 \
    -max_total_time="$seconds" -artifact_prefix=.build/artifacts/ -print_final_stats=1 \
    ${FUZZ_FLAGS:-}
