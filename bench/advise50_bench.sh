#!/usr/bin/env bash
# B7: `slicewise advise` on bench/data/fleet-50-tenants.json (fifty tenants, a 70B model over two
# GPUs), three GPU types (L40S, H100, A100-80GB) and four purchase options, against the same search
# without pruning (--no-prune) as the baseline: B5's script on this input.
# Usage: bench/advise50_bench.sh [RUNS] [JOBS]  (defaults 5 and 2).
set -euo pipefail
cd "$(dirname "$0")/.."
ADVISE_INPUT=bench/data/fleet-50-tenants.json \
ADVISE_ARGS="--gpus L40S,H100-SXM-80GB,A100-80GB --options on_demand,spot,reserved_1y,reserved_3y --max-gpus 64" \
  exec bench/advise_bench.sh "$@"
