#!/usr/bin/env bash
# B9: `slicewise advise` on examples/fleet-13-tenants.json (three tenants replay zstd traces), on
# L40S and time-slicing only, with one build against another: the baseline is a slicewise built
# before traces were kept decoded in the parent (commit 98dd7d8 or earlier), the other this build.
# Runs interleaved pairs and prints each run's wall time, then the medians and their ratio.
# Usage: bench/advise_traces_bench.sh BASELINE_EXE [RUNS] [JOBS]  (defaults 5 and 2).
set -euo pipefail
cd "$(dirname "$0")/.."
baseline=${1:?usage: bench/advise_traces_bench.sh BASELINE_EXE [RUNS] [JOBS]}
runs=${2:-5}
jobs=${3:-2}
exe=build/ci/cli/slicewise
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
one() {  # EXE: prints the wall seconds of one advise
  local start end
  start=$(date +%s.%N)
  "$1" advise examples/fleet-13-tenants.json --gpus L40S --strategies time_slicing --out "$out/advice" \
    --jobs "$jobs" --progress none > /dev/null
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN {printf "%.2f\n", b - a}'
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
for ((i = 1; i <= runs; ++i)); do
  before=$(one "$baseline")
  after=$(one "$exe")
  echo "run $i: baseline $before s, this build $after s"
  echo "$before" >> "$out/before"
  echo "$after" >> "$out/after"
done
b=$(median < "$out/before")
a=$(median < "$out/after")
echo "median: baseline $b s, this build $a s, ratio $(awk -v x="$b" -v y="$a" 'BEGIN {printf "%.2f", x / y}')"
