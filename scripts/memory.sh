#!/usr/bin/env bash
# Bounded memory: peak RSS of `textrender measure` (release) over generated feeds of
# 20,000 and 200,000 posts (or the counts given). The reader streams and the caches are
# bounded, so the figures should be close, not 10× apart.
#
#   scripts/memory.sh [COUNT...]     default: 20000 200000
#   MAX_RATIO=1.5 scripts/memory.sh  also fail when the largest feed's peak RSS is more
#                                    than MAX_RATIO × the smallest's
#
# Feeds come from Fuzz/'s FeedGenerator (SampleFeed.posts(count:seed:) as JSON Lines).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"

counts=("$@")
(( ${#counts[@]} > 0 )) || counts=(20000 200000)
for count in "${counts[@]}"; do
    [[ "$count" =~ ^[0-9]+$ ]] || { echo "usage: scripts/memory.sh [COUNT...]" >&2; exit 64; }
done
[[ -x /usr/bin/time ]] || { echo "scripts/memory.sh: needs GNU time (apt-get install time)" >&2; exit 1; }

swift build -c release --product textrender
(cd Fuzz && swift build -c release --product FeedGenerator)
generator=Fuzz/.build/release/FeedGenerator

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
peaks=()
for count in "${counts[@]}"; do
    feed="$work/feed-$count.jsonl"
    "$generator" "$count" > "$feed"
    if ! /usr/bin/time -v .build/release/textrender measure "$feed" > "$work/out.jsonl" 2> "$work/stderr.txt"; then
        cat "$work/stderr.txt" >&2
        echo "scripts/memory.sh: textrender measure failed on $count posts" >&2
        exit 1
    fi
    lines=$(wc -l < "$work/out.jsonl")
    if (( lines != count )); then
        echo "scripts/memory.sh: measured $lines of $count posts" >&2
        exit 1
    fi
    kilobytes=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/stderr.txt")
    seconds=$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$work/stderr.txt")
    peaks+=("$kilobytes")
    grep '^textrender: measured' "$work/stderr.txt" >&2 || true  # cache sizes stay within their limits
    awk -v n="$count" -v bytes="$(wc -c < "$feed")" -v kb="$kilobytes" -v wall="$seconds" \
        'BEGIN { printf "%8d posts  %7.1f MB feed  peak RSS %7.1f MB  %s wall\n", n, bytes / 1048576, kb / 1024, wall }'
done

if (( ${#peaks[@]} > 1 )); then
    ratio=$(awk -v a="${peaks[-1]}" -v b="${peaks[0]}" 'BEGIN { printf "%.2f", a / b }')
    echo "peak RSS ratio (${counts[-1]} / ${counts[0]} posts): $ratio"
    if [[ -n "${MAX_RATIO:-}" ]] && awk -v r="$ratio" -v m="$MAX_RATIO" 'BEGIN { exit !(r > m) }'; then
        echo "scripts/memory.sh: peak RSS grew by more than $MAX_RATIO×" >&2
        exit 1
    fi
fi
