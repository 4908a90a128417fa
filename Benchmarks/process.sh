#!/usr/bin/env bash
# Whole `textrender measure` processes, the command users run: wall time, best of ROUNDS,
# over COUNT generated posts of a common vocabulary (SampleFeed) and of a diverse one
# (diverse-feed.py): --jobs 1, 2 and 8 at one width, and four widths at --jobs 1 and 2.
# Then whole `textrender feed` processes over the first FEED_COUNT posts of each, --jobs 1,
# 2 and 8, images to /dev/shm (a cell is 200-400 KB at scale 2: 20,000 posts write 5-8 GB,
# 200,000 would not fit); the output directory is removed before each run, untimed.
#
#   Benchmarks/process.sh [COUNT] [ROUNDS] [FEED_COUNT]     default: 200000 3 20000
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
count=${1:-200000}
rounds=${2:-3}
feed_count=${3:-20000}

swift build -c release --product textrender >&2
(cd Fuzz && swift build -c release --product FeedGenerator >&2)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
Fuzz/.build/release/FeedGenerator "$count" > "$work/common.jsonl"
python3 Benchmarks/diverse-feed.py "$count" > "$work/diverse.jsonl"

python3 - "$work" "$count" "$rounds" "$feed_count" <<'PY'
import shutil, subprocess, sys, tempfile, time
work, count, rounds, feed_count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
runs = [["--jobs", "1"], ["--jobs", "2"], ["--jobs", "8"],
        ["--jobs", "1", "--width", "320,375,414,768"], ["--jobs", "2", "--width", "320,375,414,768"]]
print(f"{'feed':8} {'options':36} {'seconds':>8} {'posts/s':>9}")
for feed in ["common", "diverse"]:
    for run in runs:
        best = float("inf")
        for _ in range(rounds):
            start = time.perf_counter()
            subprocess.run([".build/release/textrender", "measure", f"{work}/{feed}.jsonl"] + run,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            best = min(best, time.perf_counter() - start)
        print(f"{feed:8} {' '.join(run):36} {best:8.2f} {count / best:9.0f}")

out = tempfile.mkdtemp(prefix="process-feed-", dir="/dev/shm")
try:
    for feed in ["common", "diverse"]:
        with open(f"{work}/{feed}.jsonl") as source, open(f"{work}/{feed}-feed.jsonl", "w") as part:
            for _, line in zip(range(feed_count), source): part.write(line)
        for jobs in ["1", "2", "8"]:
            best = float("inf")
            for _ in range(rounds):
                shutil.rmtree(f"{out}/cells", ignore_errors=True)
                start = time.perf_counter()
                subprocess.run([".build/release/textrender", "feed", f"{work}/{feed}-feed.jsonl", "--out", f"{out}/cells", "--jobs", jobs],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                best = min(best, time.perf_counter() - start)
            print(f"{feed:8} {'feed --jobs ' + jobs:36} {best:8.2f} {feed_count / best:9.0f}")
finally:
    shutil.rmtree(out, ignore_errors=True)
PY