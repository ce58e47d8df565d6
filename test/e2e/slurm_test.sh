#!/usr/bin/env bash
# A sweep on a real Slurm cluster (docs/distributed.md): starts a one-node cluster on localhost
# (munged, slurmctld and slurmd from Debian's munge and slurm-wlm, every file in a temporary
# folder, ports chosen free), then
#  - `sweep --emit slurm --shards 4` writes the job; its submit.sh runs a 4-task array and a merge
#    job that depends on it; the merged results.csv, results.json and junit.xml equal a serial run
#    byte for byte;
#  - the job emitted again with a gate that trips and submitted again resumes: no point is run
#    twice (every point file is the same file), and the merge job ends with exit code 3;
# and stops the cluster, whatever happened, within a bounded time.
# Usage: slurm_test.sh SLICEWISE_EXE SOURCE_DIR. Skips (exit 77) without root or the Slurm tools
# (scripts/install-deps installs them).
set -euo pipefail
exe=$1
src=$2
cd "$src"
fail() { echo "FAIL: $*" >&2; exit 1; }

for tool in munged mungekey slurmctld slurmd sbatch squeue scontrol sinfo; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (scripts/install-deps installs munge and slurm-wlm)"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "SKIP: slurmd needs root"; exit 77; }

work=$(mktemp -d /tmp/sw-slurm-test-XXXXXX)
chmod 755 "$work"  # munged: every user must reach its socket's folder
export SLURM_CONF=$work/slurm.conf

stop_cluster() {
  scontrol shutdown >/dev/null 2>&1 || true
  for name in slurmctld slurmd munged; do
    [ -f "$work/$name.pid" ] && kill "$(cat "$work/$name.pid")" 2>/dev/null || true
  done
  for _ in $(seq 50); do
    alive=0
    for name in slurmctld slurmd munged; do
      [ -f "$work/$name.pid" ] && kill -0 "$(cat "$work/$name.pid")" 2>/dev/null && alive=1
    done
    [ $alive -eq 0 ] && break
    sleep 0.2
  done
  for name in slurmctld slurmd munged; do
    [ -f "$work/$name.pid" ] && kill -9 "$(cat "$work/$name.pid")" 2>/dev/null || true
  done
}
on_exit() {
  code=$?
  if [ $code -ne 0 ] && [ $code -ne 77 ]; then
    for log in slurmctld.log slurmd.log munged.log; do
      [ -f "$work/$log" ] && { echo "--- $log (last lines)" >&2; tail -n 15 "$work/$log" >&2; }
    done
    for log in "$work"/job/logs/*.log; do
      [ -f "$log" ] && { echo "--- $log" >&2; cat "$log" >&2; }
    done
  fi
  stop_cluster
  rm -rf "$work"
}
trap on_exit EXIT

# --- a one-node cluster ------------------------------------------------------------------------
mungekey --create --keyfile="$work/munge.key"
munged --socket="$work/munge.socket" --key-file="$work/munge.key" --log-file="$work/munged.log" \
  --pid-file="$work/munged.pid" --seed-file="$work/munged.seed"
read -r ctld_port node_port < <(/usr/bin/python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
node=$(hostname -s)
mkdir -p "$work/state" "$work/spool"
cat >"$SLURM_CONF" <<EOF
ClusterName=slicewise-test
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$node_port
AuthType=auth/munge
AuthInfo=socket=$work/munge.socket
CryptoType=crypto/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -c
slurmd
for _ in $(seq 100); do
  [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && break
  sleep 0.2
done
[ "$(sinfo -h -o %t)" = idle ] || fail "the node did not come up idle: $(sinfo -h -o %t)"

# Waits (at most 120 s) until the cluster has no job left.
wait_for_jobs() {
  for _ in $(seq 600); do
    [ -z "$(squeue -h)" ] && return 0
    sleep 0.2
  done
  fail "jobs still queued or running after 120 s: $(squeue)"
}
# The state and exit code of a finished job, e.g. "COMPLETED 0:0".
job_outcome() {
  scontrol show job "$1" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p;s/.*[^a-zA-Z]ExitCode=\([0-9:]*\).*/\1/p' | paste -sd' '
}
merge_job_of() { sed -n 's/.*merge as job \([0-9][0-9]*\).*/\1/p' "$1"; }

# --- the serial run to compare with (the same gate: junit.xml records it) -----------------------
sweep=examples/sweep-seed-users.json
"$exe" sweep "$sweep" --out "$work/serial" --progress none --fail-if 'sla_violation_rate > 0.9' >/dev/null

# --- 4 shards as a job array, then the merge job -----------------------------------------------
"$exe" sweep "$sweep" --emit slurm --shards 4 --out "$work/job" --fail-if 'sla_violation_rate > 0.9' >"$work/emit.out"
grep -q "#SBATCH --array=0-3" "$work/job/sweep.sbatch" || fail "sweep.sbatch has no 4-task array"
"$work/job/submit.sh" >"$work/submit1.out"
merge=$(merge_job_of "$work/submit1.out")
[ -n "$merge" ] || fail "submit.sh did not name the merge job: $(cat "$work/submit1.out")"
wait_for_jobs
[ "$(job_outcome "$merge")" = "COMPLETED 0:0" ] || fail "merge job $merge: $(job_outcome "$merge"), expected COMPLETED 0:0"
for i in 0 1 2 3; do
  grep -q "\"shard\": \"$((i + 1))/4\"" "$work/job/shards/shard-$i/sweep.json" || fail "shard-$i is not shard $((i + 1))/4"
done
for f in results.csv results.json junit.xml; do
  cmp "$work/serial/$f" "$work/job/merged/$f" || fail "merged $f differs from the serial run"
done

# --- emitted again with a gate that trips, submitted again: resumed, and exit 3 ---------------
ls -i "$work"/job/shards/*/points/*.json >"$work/points-before"
[ "$(wc -l <"$work/points-before")" -eq 8 ] || fail "expected 8 point files"
"$exe" sweep "$sweep" --emit slurm --shards 4 --out "$work/job" --fail-if 'sla_violation_rate > 0.01' >/dev/null
"$work/job/submit.sh" >"$work/submit2.out"
merge=$(merge_job_of "$work/submit2.out")
wait_for_jobs
ls -i "$work"/job/shards/*/points/*.json >"$work/points-after"
cmp -s "$work/points-before" "$work/points-after" || fail "a resubmitted shard ran its points again"
[ "$(job_outcome "$merge")" = "FAILED 3:0" ] || fail "merge job $merge with a tripping gate: $(job_outcome "$merge"), expected FAILED 3:0"
grep -q "sla_violation_rate > 0.01" "$work/job/logs/merge.log" || fail "merge.log does not name the gate that tripped"
for f in results.csv results.json; do
  cmp "$work/serial/$f" "$work/job/merged/$f" || fail "merged $f changed when merged again"
done

# --- the emitter refuses what would not resume --------------------------------------------------
if "$exe" sweep "$sweep" --emit slurm --shards 2 --out "$work/job" 2>"$work/refuse.err"; then
  fail "emitting 2 shards into a folder of 4 was accepted"
fi
grep -q "holds the files of another job" "$work/refuse.err" || fail "unexpected message: $(cat "$work/refuse.err")"
echo "slurm: 4-task array and merge job equal the serial run; resubmission resumed; gate exit 3"
