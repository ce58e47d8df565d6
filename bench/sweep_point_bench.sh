#!/usr/bin/env bash
# B6: the time one sweep point takes, the figure docs/distributed.md scales to a 10,000-point
# sweep. For each example sweep, interleaved: the whole sweep serially (--jobs 1, the baseline)
# and as 4 shards run one after another (--shards 4 --shard-index I, then merge: what a cluster
# does, less the waiting), each RUNS times. Prints per run the wall and CPU seconds per point,
# then the medians and the ratio sharded / serial (the overhead of sharding).
# Usage: bench/sweep_point_bench.sh [RUNS]  (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
exe=build/ci/cli/slicewise
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
# Runs a command; prints "wall_s cpu_s" (CPU of the command and its children).
timed() {
  /usr/bin/time -f "%e %U %S" -o "$out/time" "$@" >/dev/null
  awk '{printf "%.3f %.3f\n", $1, $2 + $3}' "$out/time"
}
for sweep in examples/sweep-mixed-h100-load.json examples/sweep-ten-light-sized.json; do
  points=$(python3 -c "
import json, math
d = json.load(open('$sweep'))
n = [len(a['values']) for a in d['axes']]
print(math.prod(n) if d.get('mode', 'grid') == 'grid' else n[0])")
  : > "$out/serial"
  : > "$out/sharded"
  for ((i = 1; i <= runs; ++i)); do
    rm -rf "$out/s" "$out/sh"
    serial=$(timed "$exe" sweep "$sweep" --out "$out/s" --jobs 1 --progress none)
    wall=0 cpu=0
    for k in 0 1 2 3; do
      read -r w c < <(timed "$exe" sweep "$sweep" --out "$out/sh/shard-$k" --shards 4 --shard-index $k --jobs 1 --progress none)
      wall=$(awk -v a="$wall" -v b="$w" 'BEGIN {print a + b}')
      cpu=$(awk -v a="$cpu" -v b="$c" 'BEGIN {print a + b}')
    done
    read -r w c < <(timed "$exe" merge "$out"/sh/shard-{0,1,2,3} --out "$out/sh/merged")
    wall=$(awk -v a="$wall" -v b="$w" 'BEGIN {print a + b}')
    cpu=$(awk -v a="$cpu" -v b="$c" 'BEGIN {print a + b}')
    cmp -s "$out/s/results.csv" "$out/sh/merged/results.csv" || { echo "merged results differ from serial" >&2; exit 1; }
    per() { awk -v t="$1" -v n="$points" 'BEGIN {printf "%.4f", t / n}'; }
    echo "$sweep run $i: serial $(per "${serial% *}") s/point wall, $(per "${serial#* }") s/point CPU;" \
         "4 shards + merge $(per "$wall") s/point wall, $(per "$cpu") s/point CPU"
    echo "$(per "${serial% *}") $(per "${serial#* }")" >> "$out/serial"
    echo "$(per "$wall") $(per "$cpu")" >> "$out/sharded"
  done
  sw=$(cut -d' ' -f1 "$out/serial" | median)
  sc=$(cut -d' ' -f2 "$out/serial" | median)
  hw=$(cut -d' ' -f1 "$out/sharded" | median)
  echo "median $sweep ($points points): serial $sw s/point wall, $sc s/point CPU; sharded $hw s/point wall;" \
       "ratio sharded/serial $(awk -v a="$hw" -v b="$sw" 'BEGIN {printf "%.2f", a / b}')"
done
