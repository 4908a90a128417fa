#!/usr/bin/env bash
# Cost per KB of the worst texts against ordinary ones, on the user's path: whole
# `textrender measure` processes (feed cells at 375 pt, whose body shows 6 lines; texts
# alone at 375 pt with no line limit: every line laid out; and the same letter-spaced by
# 2 points) over feeds of about 2 MB each, every post a 100,000-character hostile text,
# and over generated posts.
#
#   Benchmarks/hostile.sh [KB [PATTERN]]    default 2048 KB per feed; PATTERN (an extended
#                                           regular expression) picks the feeds by name
#   TEXTRENDER=PATH FEED_GENERATOR=PATH Benchmarks/hostile.sh …   other builds of the two
#
# Prints, per feed, the best of three runs in µs per KB of input and the ratio to the
# ordinary feed's, run alternately with it (so "ordinary" reads about 1). Needs the release
# textrender (`swift build -c release`) and the FeedGenerator of Fuzz/ (scripts/memory.sh
# builds both).
set -euo pipefail
cd "$(dirname "$0")/.."
kb="${1:-2048}"
pattern="${2:-.}"
bin="${TEXTRENDER:-.build/release/textrender}"
generator="${FEED_GENERATOR:-Fuzz/.build/release/FeedGenerator}"
[[ -x "$bin" && -x "$generator" ]] || { echo "hostile.sh: build textrender (release) and Fuzz's FeedGenerator first" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$generator" $((kb * 10)) > "$work/generated.jsonl"
head -c $((kb * 1024)) "$work/generated.jsonl" | sed '$d' > "$work/ordinary.jsonl"
rm "$work/generated.jsonl"
python3 - "$work" "$kb" <<'PY'
import json, sys
work, kb = sys.argv[1], int(sys.argv[2])
post_units = 100_000  # characters per post: each post is one hostile text
kinds = {
    "variation-selectors": lambda n: "a" + "\ufe0f" * n,
    "combining-marks": lambda n: "e" + "\u0301" * n,
    "zwj-emoji-chain": lambda n: "\u200d".join(["👩"] * (n // 3)),
    "no-break-opportunity": lambda n: "x" * n,
    "script-change-no-break": lambda n: "aα" * (n // 2),
    "rtl-no-break-opportunity": lambda n: "א" * n,
    "spaces-and-en-quads": lambda n: " \u2000" * (n // 2),
    "bidi-controls": lambda n: "\u202e\u2067ab" * (n // 4),
    "empty-paragraphs": lambda n: "\n" * n,
    "cjk-punctuation": lambda n: "「中」，。" * (n // 5),
    "arabic-with-marks": lambda n: "بِسْمِ " * (n // 7),
    "emoji-modifiers-flags": lambda n: "👍🏽🇯🇵" * (n // 8),
    # Rich text: every entity highlighted (links underlined), every code an emoticon image.
    "links": lambda n: " ".join(f"https://t.co/{i}" for i in range(n // 16)),
    "mentions-topics-hashtags": lambda n: " ".join(f"@u{i} #t{i}# #h{i}" for i in range(n // 20)),
    "emoticons": lambda n: "[微笑]x" * (n // 5),
}
for name, make in kinds.items():
    with open(f"{work}/{name}.jsonl", "w") as f:
        size, i = 0, 0
        while size < kb * 1024:
            line = json.dumps({"id": i, "author": "a", "text": make(post_units)}, ensure_ascii=False) + "\n"
            f.write(line)
            size += len(line.encode())
            i += 1
PY

run_us() {  # FILE ARGS...: one whole-process run, in µs
    local file=$1; shift
    local start end
    start=$(date +%s%N)
    "$bin" measure "$file" "$@" > /dev/null 2>&1 || true
    end=$(date +%s%N)
    echo $(( (end - start) / 1000 ))
}

# FILE ARGS...: FILE's best of three runs in µs per KB, and the ratio to the ordinary feed's
# best per KB; the two alternate run by run, so that both see the same machine.
against_ordinary() {
    local file=$1; shift
    local best="" base="" us
    for _ in 1 2 3; do
        us=$(run_us "$work/ordinary.jsonl" "$@"); [[ -z "$base" || $us -lt $base ]] && base=$us
        us=$(run_us "$file" "$@"); [[ -z "$best" || $us -lt $best ]] && best=$us
    done
    local bytes base_bytes
    bytes=$(wc -c < "$file"); base_bytes=$(wc -c < "$work/ordinary.jsonl")
    printf '%d %.2f' $(( best * 1024 / bytes )) "$(echo "($best / $bytes) / ($base / $base_bytes)" | bc -l)"
}

printf '%-24s %6s %12s %7s %12s %7s %13s %7s\n' feed KB "cells µs/KB" ratio "texts µs/KB" ratio "spaced µs/KB" ratio
for file in "$work"/*.jsonl; do
    name=$(basename "$file" .jsonl)
    [[ "$name" =~ $pattern ]] || continue
    read -r cell cell_ratio <<< "$(against_ordinary "$file")"
    read -r text text_ratio <<< "$(against_ordinary "$file" --layout text)"
    read -r spaced spaced_ratio <<< "$(against_ordinary "$file" --layout text --letter-spacing 2)"
    printf '%-24s %6d %12d %7s %12d %7s %13d %7s\n' "$name" $(( $(wc -c < "$file") / 1024 )) \
        "$cell" "$cell_ratio" "$text" "$text_ratio" "$spaced" "$spaced_ratio"
done
