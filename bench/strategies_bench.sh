#!/usr/bin/env bash
# B10: `slicewise simulate` of one scenario with N strategies (issue 41, item 5): the seed's two
# tenants on one L40S, a 10 s horizon, N time-slicing strategies that differ in name only, one
# child at a time (--jobs 1). Before, each child wrote (and the parent re-read and re-checked) a
# result that carried every strategy of the input: N strategies cost N^2. The baseline in the same
# run is N = 1 (one child's fork, SimGrid start and result): a linear cost stays near that per
# strategy at every N; a quadratic one doubles its cost per strategy with each doubling of N.
# Usage: bench/strategies_bench.sh [EXE] [RUNS] [N...]  (defaults build/ci/cli/slicewise, 3, 250 500 1000 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
exe=${1:-build/ci/cli/slicewise}
runs=${2:-3}
shift $(($# < 2 ? $# : 2))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(250 500 1000 2000)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
scenario() {  # N: writes $out/sN.json
  python3 - "$1" "$out/s$1.json" <<'EOF'
import json, sys
n, path = int(sys.argv[1]), sys.argv[2]
doc = json.load(open("examples/seed-l40s-timeslicing.json"))
doc["horizon_s"] = 10
doc["warmup_s"] = 0
doc["metrics_interval_s"] = 1
doc["strategies"] = [{"kind": "time_slicing", "name": "ts-%d" % i} for i in range(n)]
json.dump(doc, open(path, "w"))
EOF
}
one() {  # N: prints the wall seconds of one simulate
  local start end
  start=$(date +%s.%N)
  "$exe" simulate "$out/s$1.json" --jobs 1 --progress none --out "$out/r$1.json" > /dev/null
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f\n", b - a}'
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
printf "%8s %10s %14s %12s\n" strategies "median s" "ms/strategy" "vs N=1"
base=""
for n in 1 "${sizes[@]}"; do
  scenario "$n"
  for ((i = 1; i <= runs; ++i)); do one "$n" >> "$out/t$n"; done
  t=$(median < "$out/t$n")
  per=$(awk -v t="$t" -v n="$n" 'BEGIN {printf "%.2f", 1000 * t / n}')
  [ -n "$base" ] || base=$per
  printf "%8d %10.3f %14s %12s\n" "$n" "$t" "$per" "$(awk -v p="$per" -v b="$base" 'BEGIN {printf "%.2f", p / b}')"
done
