#!/usr/bin/env bash
# B5: `slicewise advise` on examples/ten-light-jobs-a100.json over all seven strategies (every GPU
# the GCP table sells in us-central1), against the same search without pruning (--no-prune) as the
# baseline. Runs interleaved pairs and prints each run's wall time and simulation count, then the
# medians and their ratio. Usage: bench/advise_bench.sh [RUNS] [JOBS]  (defaults 5 and 2).
# ADVISE_INPUT and ADVISE_ARGS set another scenario and advise's options (bench/advise50_bench.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
jobs=${2:-2}
exe=build/ci/cli/slicewise
input=${ADVISE_INPUT:-examples/ten-light-jobs-a100.json}
read -r -a extra <<< "${ADVISE_ARGS:-}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
one() {  # prints "seconds simulations"
  local start end line
  start=$(date +%s.%N)
  line=$("$exe" advise "$input" --out "$out/advice" --jobs "$jobs" --progress none ${extra[@]+"${extra[@]}"} "$@" |
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
