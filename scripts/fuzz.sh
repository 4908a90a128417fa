#!/usr/bin/env bash
# Builds a libFuzzer target in Fuzz/ (ASan + libFuzzer, release) and runs it for a bounded
# time over its seed corpus: LayoutFuzzer (text and options, seeds in Fuzz/corpus/) or, with
# --fonts, FontFuzzer (bundled fonts damaged table by table, seeds in Fuzz/corpus-fonts/).
#
#   scripts/fuzz.sh [--fonts] [SECONDS]        default 60; extra libFuzzer flags in $FUZZ_FLAGS
#   scripts/fuzz.sh [--fonts] --replay FILE…   run saved inputs once (crash reproducers, seeds)
#
# Exits non-zero when an input breaks an invariant, traps, trips AddressSanitizer, runs
# over 10 s or over 2 GB; the input is saved as Fuzz/.build/artifacts/crash-<sha1> (or
# timeout-…, oom-…; fonts-crash-… and so on for FontFuzzer). New coverage goes to
# Fuzz/.build/fuzz-corpus/ (fuzz-corpus-fonts/) and is reused by later runs. Turn a crash
# into a regression test in Tests/TextKitLiteTests/HostileInputTests.swift (FontTests.swift
# for a font).
# Per-input leak checks are off (-detect_leaks=0): the font, word and glyph caches make
# every input look like a leak candidate, and rerunning each one halves the speed.
set -euo pipefail
caller="$PWD"
cd "$(dirname "$0")/../Fuzz"
export PATH="$PATH:/opt/swift/usr/bin"

target=LayoutFuzzer seeds=corpus work=.build/fuzz-corpus prefix=.build/artifacts/
target_flags=(-dict=unicode.dict -max_len=4096)
if [[ "${1:-}" == "--fonts" ]]; then
    shift
    # An input is 5 header bytes, up to 7 damages of 8 bytes and up to 64 bytes of text.
    target=FontFuzzer seeds=corpus-fonts work=.build/fuzz-corpus-fonts prefix=.build/artifacts/fonts-
    target_flags=(-max_len=128)
fi

swift build -c release --scratch-path .build/fuzzer --product "$target" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -use-ld=lld
fuzzer=.build/fuzzer/release/$target

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
    echo "usage: scripts/fuzz.sh [--fonts] [SECONDS] | [--fonts] --replay FILE..." >&2
    exit 64
fi
mkdir -p "$work" .build/artifacts
# shellcheck disable=SC2086  # FUZZ_FLAGS is a list of flags
"$fuzzer" "$work" "$seeds" \
    "${target_flags[@]}" -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 \
    -max_total_time="$seconds" -artifact_prefix="$prefix" -print_final_stats=1 \
    ${FUZZ_FLAGS:-}
