#!/bin/bash
# Alternates FeedReport workloads in 1-second windows and prints each one's minimum and
# median time per pass, and their ratios to the first. On a VM whose speed flips between
# states, alternating gives every workload the same minutes and the minimum is the steadiest
# figure; it also compares two versions of the library in one run.
#
#   Benchmarks/alternate.sh ROUNDS CHECKOUT:WORKLOAD...
#
# CHECKOUT is a clone of this repository whose Benchmarks are built in release mode; e.g.
# from the repository's root, against a clone of an older commit in ../base:
#   Benchmarks/alternate.sh 15 .:rawHarfBuzz ../base:measureWarmWords .:measureWarmWords
set -euo pipefail
rounds=${1:?usage: alternate.sh ROUNDS CHECKOUT:WORKLOAD...}
shift
[[ $# -ge 1 ]] || { echo "usage: alternate.sh ROUNDS CHECKOUT:WORKLOAD..." >&2; exit 2; }
for ((i = 0; i < rounds; i++)); do
    for entry in "$@"; do
        checkout=${entry%%:*} workload=${entry##*:}
        line=$(cd "$checkout/Benchmarks" && .build/release/FeedReport --profile "$workload" --seconds 1 2>&1 | tail -1)
        [[ $line =~ passes,\ ([0-9.]+)\ µs ]] || { echo "$entry: $line" >&2; exit 1; }
        echo "$entry ${BASH_REMATCH[1]}"
    done
done | python3 -c '
import sys, statistics
times = {}
for line in sys.stdin:
    name, value = line.split()
    times.setdefault(name, []).append(float(value) / 1000)
names = list(times)
for name in names:
    t = times[name]
    print(f"{name}: min {min(t):.1f} ms, median {statistics.median(t):.1f} ms per pass ({len(t)} windows)")
for name in names[1:]:
    a, b = times[name], times[names[0]]
    print(f"{name} / {names[0]}: {min(a) / min(b):.3f} by the minimum, {statistics.median(a) / statistics.median(b):.3f} by the median")
'
