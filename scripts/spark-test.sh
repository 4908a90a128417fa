#!/usr/bin/env bash
# The feed measured in pieces gives what `textrender measure` gives, byte for byte:
# 20,000 generated posts (or COUNT), with blank, CRLF, malformed, invalid UTF-8 and
# over-long lines mixed in, measured by scripts/spark-measure.sh (Apache Spark, local mode,
# 7 partitions, then the default ones with --width 320 --layout text) and by GNU parallel
# (--pipe --keep-order); each output is compared with the CLI's (cmp), and each exit
# status too (2: bad lines were skipped).
#
#   scripts/spark-test.sh [COUNT]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
count=${1:-20000}
[[ "$count" =~ ^[0-9]+$ ]] || { echo "usage: scripts/spark-test.sh [COUNT]" >&2; exit 64; }

scripts/setup.sh
if ! command -v parallel >/dev/null 2>&1; then
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq parallel >/dev/null
fi
swift build -c release --product textrender
(cd Fuzz && swift build -c release --product FeedGenerator)
textrender=.build/release/textrender

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
feed="$work/feed.jsonl"
# Every 997th post is followed by a line measure skips or rejects; no newline at the end.
Fuzz/.build/release/FeedGenerator "$count" | awk '
    BEGIN {
        odd[0] = ""; odd[1] = "  \t"; odd[2] = "not json"; odd[3] = "{\"id\": 1}"
        odd[4] = "{\"id\": \"bad\", \"text\": \"caf\351\"}"         # invalid UTF-8
        odd[5] = "{\"id\": \"crlf\", \"text\": \"ends in CR LF\"}\r"
        odd[6] = "{\"id\": \"cr\",\r\"text\": \"a CR between fields\"}"
        long = "x"; while (length(long) < 1100000) long = long long
        odd[7] = "{\"id\": \"long\", \"text\": \"" long "\"}"    # over 1 MiB
    }
    { print } NR % 997 == 0 { print odd[n++ % 8] }' | head -c -1 > "$feed"

run_cli() {  # OUT [measure options]: the reference output and exit status
    local out=$1 status=0
    shift
    "$textrender" measure "$feed" "$@" > "$out" 2> "$work/cli.err" || status=$?
    echo "$status"
}

check() {  # NAME EXPECTED_STATUS STATUS REFERENCE OUTPUT
    if [[ "$2" != "$3" ]]; then
        echo "spark-test: $1: exit status $3, textrender measure's was $2" >&2
        exit 1
    fi
    if ! cmp "$4" "$5"; then
        echo "spark-test: $1: output differs from textrender measure's" >&2
        exit 1
    fi
    echo "spark-test: $1: $(wc -l < "$5") lines, identical to textrender measure's (exit status $3)" >&2
}

spark() {  # NAME OUTDIR REFERENCE EXPECTED_STATUS [measure options]
    local name=$1 outdir=$2 reference=$3 expected=$4 status=0
    shift 4
    scripts/spark-measure.sh "$feed" "$outdir" "$@" 2> "$work/spark.err" || status=$?
    if [[ "$status" != 0 && "$status" != 2 ]]; then
        cat "$work/spark.err" >&2
        echo "spark-test: $name: scripts/spark-measure.sh failed (status $status)" >&2
        exit 1
    fi
    cat "$outdir"/part-* > "$work/spark.jsonl"
    check "$name ($(ls "$outdir" | grep -c '^part-') part files)" "$expected" "$status" "$reference" "$work/spark.jsonl"
}

status=$(run_cli "$work/cli.jsonl")
SPARK_MEASURE_PARTITIONS=7 spark "spark, 7 partitions" "$work/out" "$work/cli.jsonl" "$status"
status=$(run_cli "$work/cli-text.jsonl" --width 320 --layout text)
spark "spark --width 320 --layout text" "$work/out-text" "$work/cli-text.jsonl" "$status" --width 320 --layout text

# GNU parallel exits with the number of jobs that failed: a block with bad lines is one.
status=0
parallel --will-cite --pipe --keep-order --block 1M "$textrender" measure - --width 320 --layout text \
    < "$feed" > "$work/parallel.jsonl" 2> "$work/parallel.err" || status=$?
(( status > 0 && status < 101 )) && status=2
check "parallel --pipe --keep-order" "$(run_cli "$work/cli-text.jsonl" --width 320 --layout text)" "$status" \
    "$work/cli-text.jsonl" "$work/parallel.jsonl"
