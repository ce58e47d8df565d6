#!/usr/bin/env bash
# B7: `slicewise advise` on bench/data/fleet-50-tenants.json (fifty tenants, a 70B model over two GPUs),
# three GPU types (L40S, H100, A100-80GB) and four purchase options, against the same search without
# pruning (--no-prune) as the baseline. Runs interleaved pairs and prints each run's wall time and simulation count, then the
# medians and their ratio. Usage: bench/advise50_bench.sh [RUNS] [JOBS]  (defaults 5 and 2).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
jobs=${2:-2}
exe=build/ci/cli/slicewise
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
one() {  # prints "seconds simulations"
  local start end line
  start=$(date +%s.%N)
  line=$("$exe" advise bench/data/fleet-50-tenants.json --out "$out/advice" --jobs "$jobs" --progress none \
         --gpus L40S,H100-SXM-80GB,A100-80GB --options on_demand,spot,reserved_1y,reserved_3y --max-gpus 64 "$@" |
         grep -o '[0-9]* simulations')
  end=$(date +%s.%N)
  echo "$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.2f", b - a}') ${line% simulations}"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
: > "$out/pruned"
: > "$out/full"
for ((i = 1; i <= runs; ++i)); do
  full=$(one --no-prune)
  pruned=$(one)
  echo "run $i: baseline (--no-prune) ${full% *} s, ${full#* } simulations; advise ${pruned% *} s, ${pruned#* } simulations"
  echo "$full" >> "$out/full"
  echo "$pruned" >> "$out/pruned"
done
full_s=$(cut -d' ' -f1 "$out/full" | median)
pruned_s=$(cut -d' ' -f1 "$out/pruned" | median)
echo "median: baseline $full_s s ($(cut -d' ' -f2 "$out/full" | median) simulations), advise $pruned_s s" \
     "($(cut -d' ' -f2 "$out/pruned" | median) simulations), ratio $(awk -v a="$full_s" -v b="$pruned_s" 'BEGIN {printf "%.2f", a / b}')"
