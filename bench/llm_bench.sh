#!/usr/bin/env bash
# B8 (LLM serving issue): how fast the serving engine simulates real LLM traffic. One
# Llama-3.1-8B-Instruct vLLM server on an H100-SXM replays an hour of the Azure LLM 2023
# conversation trace (19,366 requests), then a fleet of 50 such servers, one per GPU, each replaying
# it: simulated requests per wall second, events per request, peak RSS. With --old BINARY the same
# two runs go through a slicewise from before the engine (the LLM tenant then in its old form:
# params_b, a 0.9 duty, 30 GiB, 32 requests at once), the baseline.
#
#   bench/llm_bench.sh [--build build/ci] [--runs 3] [--old /path/to/old/slicewise]
#
# An old binary: git worktree add /tmp/old 381b393 && cmake -S /tmp/old -B /tmp/old/build \
#   -DCMAKE_BUILD_TYPE=Release -DSW_BUILD_GUI=OFF -DSW_BUILD_TESTS=OFF -DSW_BUILD_BENCH=OFF &&
#   cmake --build /tmp/old/build -j2 --target slicewise
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/ci
runs=3
old=""
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --old) old=$2; shift 2 ;;
    *) echo "usage: bench/llm_bench.sh [--build DIR] [--runs N] [--old BINARY]" >&2; exit 2 ;;
  esac
done
exe="$PWD/$build/cli/slicewise"
work=$(mktemp -d /tmp/sw-llm-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT
trace="$PWD/examples/traces/azure-llm-inference-2023/AzureLLMInferenceTrace_conv.csv.zst"

# scenario FILE SERVERS FORM: FORM is "engine" (today's) or "old".
scenario() {
  python3 - "$1" "$2" "$3" "$trace" <<'PY'
import json, sys
path, servers, form, trace = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
if form == "engine":
    workload = {"kind": "llm", "llm": {"model": "Llama-3.1-8B-Instruct", "dtype": "bf16"}, "engine": {"name": "vllm"}}
else:
    workload = {"kind": "llm", "reference_gpu": "H100-SXM-80GB", "gpu_duty_frac": 0.9, "sm_occupancy_frac": 0.6,
                "mem_bw_frac": 0.7, "memory_gib": 30, "max_concurrency": 32, "llm": {"params_b": 8.0, "dtype": "bf16"}}
tenants = [{"name": "conv-%02d" % i, "workload": workload,
            "load": {"kind": "trace", "trace_file": trace, "trace_format": "azure-llm", "window_end_s": 3600}}
           for i in range(servers)]
json.dump({"schema_version": 1, "name": "b8", "seed": 8, "horizon_s": 3600, "warmup_s": 0, "metrics_interval_s": 60,
           "fleet": [{"gpu": "H100-SXM-80GB", "count": servers}], "tenants": tenants,
           "strategies": [{"kind": "dedicated"}]}, open(path, "w"))
PY
}

# run BINARY FILE LABEL: the median of $runs runs' wall time (the whole `simulate`: reading the
# trace, the run, writing the result), the result's figures and the largest child's peak RSS.
run() {
  python3 - "$1" "$2" "$3" "$runs" "$work/result.json" <<'PY'
import json, resource, statistics, subprocess, sys, time
binary, scenario, label, runs, out = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
times = []
for _ in range(runs):
    start = time.perf_counter()
    subprocess.run([binary, "simulate", scenario, "--out", out, "--progress", "none"], check=True,
                   stdout=subprocess.DEVNULL)
    times.append(time.perf_counter() - start)
times.sort()
rss_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
s = json.load(open(out))["strategies"][0]
done = sum(t["num_completed"] for t in s["tenants"])
wall = statistics.median(times)
print("%-16s requests=%d wall_s=%.3f (min %.3f max %.3f) requests_per_s=%.0f events_per_request=%.2f peak_rss_mib=%.1f"
      % (label, done, wall, times[0], times[-1], done / wall, s["num_events"] / max(done, 1), rss_mib))
PY
}

for servers in 1 50; do
  scenario "$work/engine-$servers.json" "$servers" engine
  run "$exe" "$work/engine-$servers.json" "engine x$servers"
  if [ -n "$old" ]; then
    scenario "$work/old-$servers.json" "$servers" old
    run "$old" "$work/old-$servers.json" "old model x$servers"
  fi
done
