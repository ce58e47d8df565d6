#!/usr/bin/env bash
# run_probes.sh: runs the GPU probes (calibration/probes, docs/probes.md) on this machine's GPU
# and writes what they measure as rows of docs/measurement-format.md.
#
#   run_probes.sh --build DIR --out FILE.csv [--quick] [--only LIST] [--max-s S]
#     --build DIR  the folder holding the sw_probe_* executables
#     --out FILE   the CSV to write; it is FILE.partial until the run completes
#     --quick      fewer points and shorter windows: about 3 minutes instead of about 7
#     --only LIST  a comma-separated subset of timeslice,sm,membw,mps (default: all four)
#     --max-s S    start no measurement that would end after S seconds (default 540)
#
# The GPU is the first CUDA device (the first of CUDA_VISIBLE_DEVICES, in PCI order). Progress
# and the probes' own messages go to stderr.
set -euo pipefail

readonly HEADER="gpu,strategy,mig_profile,n_contexts,workload,workload_params,metric,value,unit,source,date,run"
readonly PARTS="timeslice,sm,membw,mps"

log() { printf 'run_probes [%3ds]: %s\n' "$SECONDS" "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}
usage() { sed -n '5,13p' "$0" | sed 's/^# \{0,1\}//'; }

# ---- arguments --------------------------------------------------------------------------------

command_line=$(printf '%q ' "$0" "$@")
command_line=${command_line% }
build_dir=""
out=""
quick=0
only=$PARTS
max_s=540
while (($#)); do
  case $1 in
    --build) build_dir=${2:?--build needs a folder}; shift 2 ;;
    --out) out=${2:?--out needs a file}; shift 2 ;;
    --quick) quick=1; shift ;;
    --only) only=${2:?--only needs a list}; shift 2 ;;
    --max-s) max_s=${2:?--max-s needs seconds}; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument '$1'" ;;
  esac
done
[[ -n $build_dir && -n $out ]] || { usage >&2; die "--build and --out are required"; }
[[ $max_s =~ ^[0-9]+$ ]] || die "--max-s needs whole seconds, got '$max_s'"
for part in ${only//,/ }; do
  [[ ",$PARTS," == *",$part,"* ]] || die "--only: unknown part '$part' (known: $PARTS)"
done

selected() { [[ ",$only," == *",$1,"* ]]; }

# ---- what to measure --------------------------------------------------------------------------

if ((quick)); then
  kernel_ms_list=(0.5 5)     # a short kernel shows the quantum, a long one the switch cost
  timeslice_counts=(1 2 4 8)
  window_s=2                 # measurement window of each co-run
  sm_counts=8,16,32,64,all
  sm_window_s=0.5
  mps_thread_pcts=(25 50 100)
else
  kernel_ms_list=(0.5 2 10)
  timeslice_counts=(1 2 3 4 6 8)
  window_s=4
  sm_counts=8,16,24,32,48,64,96,all
  sm_window_s=1
  mps_thread_pcts=(10 25 50 75 100)
fi
membw_counts=(1 2 4 8)

timeslice_bin=$build_dir/sw_probe_timeslice
membw_bin=$build_dir/sw_probe_membw
sm_bin=$build_dir/sw_probe_sm_scaling
require() { [[ -x $1 ]] || die "$1 is missing: build with -DSW_BUILD_PROBES=ON and pass its folder to --build"; }
if selected timeslice || selected mps; then require "$timeslice_bin"; fi
if selected membw || selected mps; then require "$membw_bin"; fi
if selected sm; then require "$sm_bin"; fi

# ---- the GPU ----------------------------------------------------------------------------------

export CUDA_DEVICE_ORDER=PCI_BUS_ID  # CUDA's device 0 is then nvidia-smi's GPU below
gpu_index=${CUDA_VISIBLE_DEVICES:-0}
gpu_index=${gpu_index%%,*}
command -v nvidia-smi > /dev/null || die "nvidia-smi not found: no NVIDIA driver on this machine"
gpu_info=$(nvidia-smi -i "$gpu_index" --format=csv,noheader,nounits \
  --query-gpu=name,driver_version,memory.total,compute_mode,mig.mode.current) ||
  die "nvidia-smi found no GPU $gpu_index"
IFS=, read -r gpu_name driver_version memory_mib compute_mode mig_mode <<< "${gpu_info//, /,}"
cuda_version=$(nvidia-smi | grep -o 'CUDA Version: [0-9.]*' | cut -d' ' -f3 || true)

# The catalog id (data/gpus.json) of an nvidia-smi GPU name.
catalog_id() {
  case $1 in
    "NVIDIA H100 80GB HBM3") echo H100-SXM-80GB ;;
    "NVIDIA H100 PCIe") echo H100-PCIe-80GB ;;
    "NVIDIA H100 NVL") echo H100-NVL-94GB ;;
    "NVIDIA H200") echo H200 ;;
    "NVIDIA A100-SXM4-40GB") echo A100-40GB ;;
    "NVIDIA A100-SXM4-80GB") echo A100-80GB ;;
    "NVIDIA L40S") echo L40S ;;
    "NVIDIA L4") echo L4 ;;
    "Tesla T4") echo T4 ;;
    *)
      local id=${1// /-}
      log "warning: '$1' has no catalog id here; writing gpu '${id//,/}'"
      echo "${id//,/}"
      ;;
  esac
}
gpu_id=$(catalog_id "$gpu_name")
today=$(date -u +%F)

[[ $mig_mode != Enabled ]] || die "MIG is enabled on GPU $gpu_index: these probes measure the whole GPU"
[[ $compute_mode == Default ]] ||
  log "warning: compute mode is $compute_mode; co-runs of several processes need Default"
if [[ -n ${CUDA_MPS_PIPE_DIRECTORY:-} || -e /tmp/nvidia-mps/control ]]; then
  die "an MPS daemon seems to be running (CUDA_MPS_PIPE_DIRECTORY or /tmp/nvidia-mps): the" \
    "time-slicing runs would be its clients. Stop it (echo quit | nvidia-cuda-mps-control) first"
fi
# Two arrays per process and up to 8 processes: 16 arrays in at most 40% of the memory.
mib_per_array=$((memory_mib / 40 < 1024 ? memory_mib / 40 : 1024))

# ---- output -----------------------------------------------------------------------------------

partial=$out.partial
mkdir -p "$(dirname "$out")"
{
  echo "# gpu: $gpu_name, driver $driver_version, CUDA $cuda_version, $memory_mib MiB"
  echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S') UTC"
  echo "# command: $command_line"
  echo "# slicewise GPU probes (docs/probes.md): one row per process and metric"
  echo "$HEADER"
} > "$partial"

tmp=$(mktemp -d)
mps_dir=""
stop_mps() {
  [[ -n $mps_dir ]] || return 0
  echo quit | nvidia-cuda-mps-control || log "warning: stopping the MPS daemon failed"
  unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
  rm -rf "$mps_dir"
  mps_dir=""
}
trap 'stop_mps; rm -rf "$tmp"' EXIT

# to_rows PROBE STRATEGY N_CONTEXTS RUN FILE...: appends the "result" lines of the FILEs (one per
# process of a co-run) as rows. A metric some process has no valid value for is dropped for all:
# the loader wants one row per context of a run.
to_rows() {
  local probe=$1 strategy=$2 n=$3 run=$4
  shift 4
  awk -v gpu="$gpu_id" -v strategy="$strategy" -v n="$n" -v source="probe:$probe" -v date="$today" \
    -v run="$run" -v processes=$# '
    function warn(message) { print "run_probes: warning: " message > "/dev/stderr" }
    $1 != "result" { next }
    NF != 6 { warn("malformed result line: " $0); next }
    { key = $2 " " $3 " " $4 }
    $5 !~ /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/ || $5 + 0 <= 0 {
      warn(key " = " $5 " is not a finite number > 0")
      bad[key] = 1
      next
    }
    {
      rows[++count] = sprintf("%s,%s,,%s,%s,%s,%s,%s,%s,%s,%s,%s", gpu, strategy, n, $2, $3, $4, $5, $6, source, date, run)
      row_key[count] = key
      seen[key]++
    }
    END {
      for (i = 1; i <= count; i++) {
        key = row_key[i]
        if (bad[key] || seen[key] != processes) {
          if (!dropped[key]++) warn("dropping " key " (" seen[key] " valid values from " processes " processes)")
          continue
        }
        print rows[i]
      }
    }
  ' "$@" >> "$partial"
}

ceil() { awk -v x="$1" 'BEGIN { printf "%d", (x == int(x)) ? x : int(x) + 1 }'; }

# fits SECONDS: whether a step of about that long still ends within --max-s.
fits() { ((SECONDS + $(ceil "$1") <= max_s)); }

# Seconds between starting n processes and their common --start-at: time to create n contexts.
start_margin() { awk -v n="$1" 'BEGIN { printf "%.2f", 2 + 0.25 * n }'; }

# corun PROBE N SHARING RUN COMMAND...: runs N copies of COMMAND from one --start-at and appends
# their rows. SHARING is the strategy of the co-run (one process alone: dedicated, or mps under
# MPS); RUN names the co-run in the run column (empty for one process).
corun() {
  local probe=$1 n=$2 strategy=$3 run=$4
  shift 4
  if ((n == 1)); then
    run=""
    [[ $strategy == mps ]] || strategy=dedicated
  fi
  local margin start_at limit i status=0 pids=()
  margin=$(start_margin "$n")
  start_at=$(awk -v now="$(date +%s.%N)" -v margin="$margin" 'BEGIN { printf "%.3f", now + margin }')
  limit=$(ceil "$(awk -v w="$window_s" -v m="$margin" 'BEGIN { print w + m + 60 }')")
  for ((i = 1; i <= n; i++)); do
    timeout -k 5 "$limit" "$@" --start-at "$start_at" > "$tmp/out.$i" 2> "$tmp/err.$i" &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do wait "${pids[$i]}" || status=$?; done
  for ((i = 1; i <= n; i++)); do sed "s|^|  [$probe $i/$n] |" "$tmp/err.$i" >&2; done
  ((status == 0)) || die "$probe failed in a co-run of $n (exit status $status, 124 = timed out);" \
    "rows so far are in $partial"
  local outputs=()
  for ((i = 1; i <= n; i++)); do outputs+=("$tmp/out.$i"); done
  to_rows "$probe" "$strategy" "$n" "$run" "${outputs[@]}"
}

# Seconds a co-run of n processes takes, start margin and exit included.
corun_s() { awk -v w="$window_s" -v m="$(start_margin "$1")" 'BEGIN { print w + m + 2 }'; }

# ---- the probes -------------------------------------------------------------------------------

declare -A items_for_ms  # kernel_ms -> work items of a kernel that long, measured alone

calibrate_kernels() {
  local k
  for k in "${kernel_ms_list[@]}"; do
    items_for_ms[$k]=$(timeout 120 "$timeslice_bin" calibrate --kernel-ms "$k") ||
      die "calibrating the $k ms kernel failed"
    log "a $k ms kernel is ${items_for_ms[$k]} work items"
  done
}

# run_timeslice SHARING PREFIX: n processes of back-to-back kernels, per kernel length.
run_timeslice() {
  local sharing=$1 prefix=$2 k n
  for k in "${kernel_ms_list[@]}"; do
    for n in "${timeslice_counts[@]}"; do
      fits "$(corun_s "$n")" || { log "no time left: skipping timeslice $n x $k ms ($sharing)"; continue; }
      log "timeslice: $n process(es), $k ms kernels, $sharing"
      corun sw_probe_timeslice "$n" "$sharing" "${prefix}timeslice-k$k-n$n" \
        "$timeslice_bin" run --kernel-ms "$k" --items "${items_for_ms[$k]}" --duration-s "$window_s"
    done
  done
}

# run_membw SHARING PREFIX: n processes streaming memory.
run_membw() {
  local sharing=$1 prefix=$2 n
  for n in "${membw_counts[@]}"; do
    fits "$(corun_s "$n")" || { log "no time left: skipping membw $n ($sharing)"; continue; }
    log "membw: $n process(es), 2 x $mib_per_array MiB, $sharing"
    corun sw_probe_membw "$n" "$sharing" "${prefix}membw-n$n" \
      "$membw_bin" --mib-per-array "$mib_per_array" --duration-s "$window_s"
  done
}

# run_sm STRATEGY ARGS...: one sw_probe_sm_scaling process, its rows with STRATEGY.
run_sm() {
  local strategy=$1
  shift
  timeout -k 5 300 "$sm_bin" --window-s "$sm_window_s" --mib-per-array "$mib_per_array" "$@" > "$tmp/sm.out" ||
    die "sw_probe_sm_scaling failed; rows so far are in $partial"
  grep -q '^result ' "$tmp/sm.out" || log "warning: sw_probe_sm_scaling measured nothing (see above)"
  to_rows sw_probe_sm_scaling "$strategy" 1 "" "$tmp/sm.out"
}

run_sm_green() {
  local n_counts
  n_counts=$(tr ',' '\n' <<< "$sm_counts" | wc -l)
  fits "$(awk -v c="$n_counts" -v w="$sm_window_s" 'BEGIN { print c * (2 * w + 2) + 5 }')" ||
    { log "no time left: skipping sm"; return 0; }
  log "sm: green contexts of $sm_counts SMs"
  run_sm dedicated --sm-counts "$sm_counts"
}

# Starts an MPS control daemon of our own (private pipe and log folders) and checks that a
# client really goes through it; false, with a note, where that is not possible.
start_mps() {
  command -v nvidia-cuda-mps-control > /dev/null || { log "no nvidia-cuda-mps-control: skipping MPS"; return 1; }
  mps_dir=$(mktemp -d)
  export CUDA_MPS_PIPE_DIRECTORY=$mps_dir/pipe CUDA_MPS_LOG_DIRECTORY=$mps_dir/log
  mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
  if ! nvidia-cuda-mps-control -d; then
    log "the MPS daemon did not start: skipping MPS"
    stop_mps
    return 1
  fi
  timeout 120 "$timeslice_bin" calibrate --kernel-ms 1 > /dev/null 2>&1 || true
  if [[ -z $(echo get_server_list | nvidia-cuda-mps-control 2> /dev/null) ]]; then
    log "no MPS server started for a client (log: $(tail -n 3 "$CUDA_MPS_LOG_DIRECTORY/control.log" 2> /dev/null)): skipping MPS"
    stop_mps
    return 1
  fi
  log "MPS daemon running (pipe $CUDA_MPS_PIPE_DIRECTORY)"
}

run_mps() {
  start_mps || return 0
  run_timeslice mps mps-
  run_membw mps mps-
  if [[ -x $sm_bin ]]; then
    local pct
    for pct in "${mps_thread_pcts[@]}"; do
      fits "$(awk -v w="$sm_window_s" 'BEGIN { print 2 * w + 5 }')" || { log "no time left: skipping MPS $pct%"; continue; }
      log "sm: MPS client at CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$pct"
      CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$pct run_sm mps --context primary
    done
  fi
  stop_mps
}

log "GPU $gpu_index: $gpu_name ($gpu_id), driver $driver_version; parts: $only; stops by ${max_s}s"
if selected timeslice || selected mps; then calibrate_kernels; fi
if selected timeslice; then run_timeslice time_slicing ""; fi
if selected sm; then run_sm_green; fi
if selected membw; then run_membw time_slicing ""; fi
if selected mps; then run_mps; fi

mv "$partial" "$out"
log "wrote $(grep -c -v -e '^#' -e "^$HEADER\$" "$out") rows to $out"
