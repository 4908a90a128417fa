#!/usr/bin/env bash
# Wall and CPU time of measuring one generated feed (default 200,000 posts) by `textrender measure`
# alone, by scripts/spark-measure.sh (local mode; SPARK_MEASURE_MASTER and
# SPARK_MEASURE_PARTITIONS apply), the same with --jobs 1, and by GNU parallel
# (--pipepart --keep-order, one block per core), back to back; each output is compared with
# the CLI's. Then Spark on the first 100 posts: what starting it costs. Figures in BENCHMARKS.md ("Spark and GNU parallel").
#
#   scripts/spark-bench.sh [COUNT] [ROUNDS]     default 200000 posts, 1 round
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
count=${1:-200000} rounds=${2:-1}
swift build -c release --product textrender 2>&1 | tail -1 >&2
(cd Fuzz && swift build -c release --product FeedGenerator 2>&1 | tail -1 >&2)
command -v parallel >/dev/null || { echo "spark-bench: needs GNU parallel (apt-get install parallel)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "spark-bench: needs GNU time (apt-get install time)" >&2; exit 1; }
textrender=$PWD/.build/release/textrender

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
Fuzz/.build/release/FeedGenerator "$count" > "$work/feed.jsonl"
echo "$count posts, $(( $(wc -c < "$work/feed.jsonl") / 1048576 )) MB, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

timed() {  # NAME COMMAND...: prints wall and CPU time (user + system of the processes
    local name=$1       # waited for); the output is in $work/out.jsonl
    shift
    rm -rf "$work/spark"
    /usr/bin/time -o "$work/time.txt" -f "%e %U %S" "$@" > "$work/out.jsonl" 2> "$work/err.txt" \
        || { cat "$work/err.txt" >&2; exit 1; }
    local spark=0
    [[ -d "$work/spark" ]] && { spark=1; cat "$work/spark"/part-* > "$work/out.jsonl"; }
    [[ -f "$work/cli.jsonl" ]] && { cmp -s "$work/out.jsonl" "$work/cli.jsonl" || { echo "spark-bench: $name: output differs" >&2; exit 1; }; }
    # Spark's JVM is not waited for by its Python driver: its CPU time is not counted.
    awk -v n="$name" -v spark="$spark" '{ printf "%-52s %7.1f s wall %11s\n", n, $1, spark ? "" : sprintf("%.1f s CPU", $2 + $3) }' "$work/time.txt"
}

for ((round = 1; round <= rounds; round++)); do
    timed "textrender measure" "$textrender" measure "$work/feed.jsonl"
    cp "$work/out.jsonl" "$work/cli.jsonl"
    timed "scripts/spark-measure.sh (${SPARK_MEASURE_MASTER:-local[*]})" scripts/spark-measure.sh "$work/feed.jsonl" "$work/spark"
    timed "scripts/spark-measure.sh --jobs 1" scripts/spark-measure.sh "$work/feed.jsonl" "$work/spark" --jobs 1
    timed "parallel --pipepart --block -1 --keep-order" \
        parallel --will-cite --pipepart -a "$work/feed.jsonl" --block -1 --keep-order "$textrender" measure -
    rm -f "$work/cli.jsonl"
    head -n 100 "$work/feed.jsonl" > "$work/small.jsonl"
    timed "scripts/spark-measure.sh, first 100 posts (start-up)" scripts/spark-measure.sh "$work/small.jsonl" "$work/spark"
done
