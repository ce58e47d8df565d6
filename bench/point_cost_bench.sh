#!/usr/bin/env bash
# B7: what one simulation point costs beyond its simulation. A tiny scenario (one tenant, one GPU,
# 10 s, at most 400 requests: well under a millisecond of simulation) is run
#   - cold: `slicewise simulate` as a process of its own per point (exec, dynamic linking, parsing
#     and catalogs, one fork for the strategy, the result written): the baseline, what a shell loop
#     or one cluster job per point pays;
#   - warm: as a point of a 40-point sweep, where the parent has parsed and loaded everything once
#     and forks a child per point (and the child one per strategy): (T(40 points) − T(1 point)) / 39.
# Also the bare start-up (`slicewise --version`). Medians of RUNS interleaved rounds, in ms.
# Usage: bench/point_cost_bench.sh [RUNS]  (default 9).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-9}
exe=${SLICEWISE:-$PWD/build/ci/cli/slicewise}  # SLICEWISE=path compares another build
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/tiny.json" <<'JSON'
{
  "schema_version": 1,
  "name": "tiny",
  "horizon_s": 10,
  "fleet": [{"gpu": "A100-80GB", "count": 1}],
  "tenants": [
    {"name": "a",
     "workload": {"solo_latency_s": 0.01, "gpu_duty_frac": 0.8, "sm_occupancy_frac": 0.3, "mem_bw_frac": 0.3,
                  "memory_gib": 4},
     "load": {"kind": "poisson", "rate_per_s": 10}}
  ],
  "strategies": [{"kind": "dedicated"}]
}
JSON
values() { seq -s, 1 "$1"; }
for n in 1 40; do
  cat > "$dir/sweep$n.json" <<JSON
{"schema_version": 1, "name": "tiny-$n", "base": "tiny.json",
 "axes": [{"name": "rate", "kind": "pointer", "pointer": "/tenants/0/load/rate_per_s", "values": [$(values $n)]}]}
JSON
done
now() { date +%s%N; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b - a) / 1e6}'; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
: > "$dir/startup"; : > "$dir/cold"; : > "$dir/warm"
for ((i = 1; i <= runs; ++i)); do
  t0=$(now); "$exe" --version > /dev/null; t1=$(now)
  echo "$(ms "$t0" "$t1")" >> "$dir/startup"
  t0=$(now); "$exe" simulate "$dir/tiny.json" --out "$dir/cold.json" > /dev/null; t1=$(now)
  echo "$(ms "$t0" "$t1")" >> "$dir/cold"
  rm -rf "$dir/o1" "$dir/o40"
  t0=$(now); "$exe" sweep "$dir/sweep1.json" --out "$dir/o1" --jobs 1 --progress none > /dev/null; t1=$(now)
  "$exe" sweep "$dir/sweep40.json" --out "$dir/o40" --jobs 1 --progress none > /dev/null; t2=$(now)
  warm=$(awk -v a="$(ms "$t0" "$t1")" -v b="$(ms "$t1" "$t2")" 'BEGIN {printf "%.2f", (b - a) / 39}')
  echo "$warm" >> "$dir/warm"
  echo "run $i: start-up $(tail -1 "$dir/startup") ms, cold point $(tail -1 "$dir/cold") ms, warm point $warm ms"
done
s=$(median < "$dir/startup"); c=$(median < "$dir/cold"); w=$(median < "$dir/warm")
echo "median: start-up $s ms, cold point $c ms, warm point $w ms; cold / warm $(awk -v a="$c" -v b="$w" 'BEGIN {printf "%.1f", a / b}')"
