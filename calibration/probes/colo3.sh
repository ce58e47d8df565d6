#!/bin/bash
# Usage: OUT=DIR bash colo3.sh   (about 5 minutes; needs PyTorch with CUDA and nvidia-smi)
# MPS thread caps, the runs that tell apart why a capped prefill and the decode beside it both
# lose speed (docs/model.md §2, "What the MPS model cannot capture"):
#  - each kind alone under a cap (does a capped GEMV still reach the bandwidth? a capped GEMM c?)
#  - the decode beside the prefill capped at 25/50/75 %, both capped, and the smaller kinds capped
#  - the SM clock and the board power of every set (does the pair run into the power limit?)
# Appends colo lines to $OUT/colo3.csv (colo_to_csv.py reads them on their own: they carry their own
# alone_* baselines) and "clock,SET,SM_MHZ,POWER_W,SAMPLES" lines to $OUT/colo3-clocks.csv.
OUT=$(realpath "${OUT:-.}"); cd "$(dirname "$0")" || exit 1; S=4
run_set() { # label kind[:pct] ...
  local label=$1 t pids=(); shift; t=$(python3 -c "import time;print(time.time()+10)")
  for kp in "$@"; do k=${kp%%:*}; p=${kp#*:}; [ "$p" = "$kp" ] && p=100
    CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$p python3 llm_bench.py loop "$k" $S "$t" > "/tmp/colo_${label}_${k}_${p}_$RANDOM.json" & pids+=($!); done
  # Sample the clock and the power over the loops' common window only (they start at $t).
  ( sleep "$(python3 -c "import time;print(max(0.0,$t-time.time()+0.5))")"
    timeout $((S - 1)) nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv,noheader,nounits -lms 200 ) \
    > "/tmp/clk_${label}.txt" 2>/dev/null & local clk=$!
  wait "${pids[@]}"; wait $clk
  awk -F', *' -v s="$label" '{c+=$1; p+=$2; n++} END {if (n) printf "clock,%s,%.0f,%.1f,%d\n", s, c/n, p/n, n}' \
    "/tmp/clk_${label}.txt" | tee -a "$OUT/colo3-clocks.csv"; rm -f "/tmp/clk_${label}.txt"
  for f in /tmp/colo_*.json; do echo "colo,$label,$(basename $f),$(cat $f)"; done | tee -a "$OUT/colo3.csv"; rm -f /tmp/colo_*.json
}
run_set alone_decode decode; run_set alone_prefill prefill; run_set alone_prefill512 prefill512; run_set alone_decode32 decode32
export CUDA_MPS_PIPE_DIRECTORY=/tmp/mpsd/pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mpsd/log; mkdir -p $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY
nvidia-cuda-mps-control -d && {
  for p in 25 50 75; do run_set mps_cap${p}_decode decode:$p; run_set mps_cap${p}_prefill prefill:$p; done
  run_set mps_decode_prefill75 decode prefill:75; run_set mps_decode_prefill50 decode prefill:50
  run_set mps_decode_prefill25 decode prefill:25
  run_set mps_decode50_prefill50 decode:50 prefill:50; run_set mps_decode25_prefill75 decode:25 prefill:75
  run_set mps_decode50_prefill100 decode:50 prefill
  run_set mps_decode_prefill512_50 decode prefill512:50; run_set mps_decode32_prefill50 decode32 prefill:50
  echo quit | nvidia-cuda-mps-control; }
