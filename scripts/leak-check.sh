#!/usr/bin/env bash
# Leaks across the C boundary: runs `textrender` built with AddressSanitizer over texts,
# feeds and faulty files that reach FreeType, HarfBuzz, ICU, fontconfig, libhyphen, libpng
# and libjpeg, with LeakSanitizer on, and fails when one run leaks or exits otherwise than
# expected. The caches are reachable at exit, so only memory nothing points to is reported.
#
#   scripts/leak-check.sh [TEXTRENDER]   default .build-address/debug/textrender, which
#                                        `swift build --build-tests --sanitize=address
#                                        --scratch-path .build-address` makes (scripts/test.sh)
#
# Stacks are unwound in full (slower), so that the one suppression can name its function:
# fontconfig loses 288 bytes once, parsing its configuration (FcInitLoadConfigAndFonts).
set -euo pipefail
binary=$(realpath -m "${1:-$(dirname "$0")/../.build-address/debug/textrender}")
cd "$(dirname "$0")/.."
[[ -x "$binary" ]] || { echo "scripts/leak-check.sh: no $binary (build it with --sanitize=address)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "leak:FcInitLoadConfigAndFonts" > "$work/suppressions.txt"
export ASAN_OPTIONS="detect_leaks=1:fast_unwind_on_malloc=0"
export LSAN_OPTIONS="suppressions=$work/suppressions.txt:print_suppressions=0"
export SWIFT_BACKTRACE=enable=no

# Faulty inputs, cut from the bundled files: a font, an avatar PNG and a JPEG picture.
mkdir -p "$work/media/avatars" "$work/media/pictures" "$work/out"
head -c 5000 fonts/DejaVuSans.ttf > "$work/cut.ttf"
head -c 2000 examples/media/avatars/hu.png > "$work/media/avatars/cut.png"
head -c 3000 examples/media/pictures/pier.jpg > "$work/media/pictures/cut.jpg"
printf '{"id": "1", "author": "a", "avatar": "avatars/cut.png", "text": "cut files", "images": ["pictures/cut.jpg"]}\n' \
    > "$work/cut.jsonl"

runs=0 failed=0
# check EXPECTED-STATUS ARGUMENTS...: one run of textrender.
check() {
    local expected=$1 status=0
    shift
    runs=$((runs + 1))
    "$binary" "$@" > "$work/stdout" 2> "$work/stderr" || status=$?
    if grep -q "LeakSanitizer" "$work/stderr"; then
        echo "leak in: textrender $*" >&2
        sed -n '/LeakSanitizer/,/SUMMARY/p' "$work/stderr" >&2
        failed=1
    elif (( status != expected )); then
        echo "textrender $* exited $status, not $expected" >&2
        tail -5 "$work/stderr" >&2
        failed=1
    fi
}

check 0 render "Hello, 世界 👋🏽 مرحبا @bob #话题# https://example.com [微笑]" --highlight --weight bold \
    --emoticons examples/emoticons/emoticons.json --scale 2 --output "$work/out/rich.png"
check 0 render "縦書きのテキスト、「こんにちは」😀" --vertical --width 200 --gray --output "$work/out/vertical.png"
check 0 render "Hyphenation of extraordinarily long words, cut in the middle" --font-family Inter \
    --variations wght=650 --hyphenate --width 120 --max-lines 2 --truncation middle --json
check 0 render "Around a circle, justified: the quick brown fox jumps over the lazy dog" \
    --exclude circle:60,20,20 --align justify --width 200 --output "$work/out/around.ppm"
check 0 render "Drawn on the asynchronous engine, over several lines" --async --width 80 --output "$work/out/async.pgm"
check 1 render "Cancelled after its first line, of several lines" --width 60 --output "$work/out/cancelled.png" \
    --cancel-after-lines 1
check 0 feed examples/photo-feed.jsonl --media-root examples --out "$work/out/photos"
check 0 feed examples/feed.jsonl --theme dark --out "$work/out/dark"
check 0 measure examples/feed.jsonl --width 320,375,414,768
check 1 render "x" --font "$work/cut.ttf" --output "$work/out/font.png"
check 2 feed "$work/cut.jsonl" --media-root "$work/media" --out "$work/out/cut"

if (( failed )); then exit 1; fi
echo "no leaks in $runs textrender runs"
