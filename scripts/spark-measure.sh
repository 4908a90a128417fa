#!/usr/bin/env bash
# Measures a feed with Apache Spark in local mode: each partition of FEED is piped through
# one `textrender measure [options]` process (RDD.pipe) and OUTDIR receives Spark's part
# files, whose concatenation in order (cat OUTDIR/part-*) equals `textrender measure FEED
# [options]` byte for byte. Installs what is missing: Java 17 (openjdk-17-jre-headless) and
# python3-venv from Debian, PySpark from PyPI into a virtual environment under .build/, and
# a release build of textrender.
#
#   scripts/spark-measure.sh FEED OUTDIR [measure options]
#
#   SPARK_MEASURE_MASTER=local[N]   Spark master (default local[*]: one task per core)
#   SPARK_MEASURE_PARTITIONS=N      at least N partitions (default: Spark's choice by size)
#   TEXTRENDER=PATH                 the binary (default .build/release/textrender, built
#                                   when missing)
#   PYTHON=python3                  the Python that makes the virtual environment
#
# Exit status: 0; 2 when some lines were bad (as measure: reported on stderr, skipped);
# 1 when something failed. OUTDIR must not exist.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pyspark_version=4.0.1
venv="$root/.build/spark-venv"

if (($# < 2)); then
    echo "usage: scripts/spark-measure.sh FEED OUTDIR [measure options]" >&2
    exit 64
fi
feed=$1 outdir=$2
shift 2
[[ -f "$feed" ]] || { echo "spark-measure: $feed: no such file" >&2; exit 1; }
[[ ! -e "$outdir" ]] || { echo "spark-measure: $outdir already exists" >&2; exit 1; }

apt_install() {
    echo "spark-measure: installing $*" >&2
    local sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "$@" >/dev/null
}

# Java 17 or newer (Spark 4 needs 17): the one Spark runs, JAVA_HOME's or the first on PATH.
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
major=$("$java" -version 2>&1 | awk -F'"' '/version/ { split($2, v, "."); print v[1]; exit }' || true)
[[ "$major" =~ ^[0-9]+$ ]] || major=0
if ((major < 17)); then
    jvm="/usr/lib/jvm/java-17-openjdk-$(dpkg --print-architecture)"
    [[ -x "$jvm/bin/java" ]] || apt_install openjdk-17-jre-headless
    export JAVA_HOME="$jvm" PATH="$jvm/bin:$PATH"
fi

# PySpark in a virtual environment of its own: Debian's python3 is externally managed (no
# pip install into it or its user site), and the venv pins the interpreter Spark's Python
# workers run (PYSPARK_PYTHON), whatever python3 comes first on PATH.
python=${PYTHON:-python3}
command -v "$python" >/dev/null 2>&1 || { apt_install python3; python=/usr/bin/python3; }
if ! "$venv/bin/python" -c "import pyspark, sys; sys.exit(pyspark.__version__ != '$pyspark_version')" 2>/dev/null; then
    if ! "$python" -m venv --clear "$venv" >/dev/null 2>&1; then
        apt_install python3-venv   # Debian's python3 has no ensurepip without it
        "$python" -m venv --clear "$venv"
    fi
    echo "spark-measure: installing pyspark $pyspark_version into $venv" >&2
    "$venv/bin/pip" install --disable-pip-version-check -q "pyspark==$pyspark_version"
fi

textrender=${TEXTRENDER:-$root/.build/release/textrender}
if [[ -z "${TEXTRENDER:-}" && ! -x "$textrender" ]]; then
    "$root/scripts/setup.sh"
    (cd "$root" && PATH="$PATH:/opt/swift/usr/bin" swift build -c release --product textrender)
fi
[[ -x "$textrender" ]] || { echo "spark-measure: $textrender: not an executable" >&2; exit 1; }
textrender=$(realpath "$textrender")
# Options measure refuses, or fonts it cannot find, are reported here in its words rather
# than by a failed Spark job.
if ! errors=$("$textrender" measure - "$@" < /dev/null 2>&1 > /dev/null); then
    printf '%s\n' "$errors" >&2
    exit 1
fi

# Hadoop refuses a ":" in a file's path: the feed is then read through a link without one.
feed=$(realpath "$feed") outdir=$(realpath -m "$outdir")
[[ "$outdir" != *:* ]] || { echo "spark-measure: $outdir: Hadoop cannot write a path with ':'" >&2; exit 1; }
if [[ "$feed" == *:* ]]; then
    link=$(mktemp -d)
    trap 'rm -rf "$link"' EXIT
    ln -s "$feed" "$link/feed.jsonl"
    feed="$link/feed.jsonl"
fi

export SPARK_MEASURE_MASTER="${SPARK_MEASURE_MASTER:-local[*]}"
export PYSPARK_PYTHON="$venv/bin/python" PYSPARK_DRIVER_PYTHON="$venv/bin/python"
export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
"$venv/bin/python" "$root/scripts/spark-measure.py" "$textrender" "$feed" "$outdir" "$@"
