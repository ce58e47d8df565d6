#!/usr/bin/env bash
# `slicewise simulate` end to end, progress and interruption (the GUI's Cancel sends SIGTERM):
#  - an uninterrupted --progress json run ends each strategy with one {"event":"done",...,"ok":true}
#    line after its progress lines;
#  - SIGTERM or SIGINT mid-run: exit 128 + signal, "interrupted by SIG..." on stderr, no --out file
#    (not even a partial one), every strategy process gone, the temporary folder removed;
#  - SIGKILL mid-run (nothing can be cleaned up by the killed process): its strategy processes are
#    not left running as orphans (the kernel sends them SIGTERM when their parent dies).
# Usage: simulate_signal_test.sh SLICEWISE_EXE SOURCE_DIR
set -euo pipefail
exe=$1
src=$2
cd "$src"
work=$(mktemp -d /tmp/sw-simulate-signal-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# wait_for_line FILE PATTERN WHAT: waits up to SW_TEST_WAIT_S seconds (default 10; the asan test
# preset allows more, a sanitized run being several times slower) for a line of FILE matching PATTERN.
wait_s=${SW_TEST_WAIT_S:-10}
wait_for_line() {
  for _ in $(seq 1 $((wait_s * 100))); do
    grep -q "$2" "$1" && return 0
    sleep 0.01
  done
  fail "$3: no line matching '$2' within $wait_s s"
}
python=/usr/bin/python3
# own_stderr FILE: FILE without the notice ASan prints (under the asan preset) when code in a
# SimGrid actor throws (cmake/asan.supp says why); it is ASan's output, not slicewise's.
own_stderr() {
  grep -v -e '==WARNING: ASan is ignoring requested __asan_handle_no_return' -e '^False positive error reports may follow$' \
    -e '^For details see https://github.com/google/sanitizers/issues/189$' "$1" || true
}
export TMPDIR=$work/tmp  # simulate's temporary folder goes here, away from other runs' folders
mkdir -p "$TMPDIR"

# --- done events ---------------------------------------------------------------------------------
"$exe" simulate examples/mixed-mig-h100.json --jobs 2 --progress json >/dev/null 2>"$work/progress.err"
own_stderr "$work/progress.err" >"$work/progress.jsonl"
$python - "$work/progress.jsonl" <<'PY'
import json, sys
lines = [json.loads(line) for line in open(sys.argv[1])]
names = ["dedicated", "mig", "mig_time_slicing", "mps"]
done = [l for l in lines if l["event"] == "done"]
assert sorted(l["index"] for l in done) == [0, 1, 2, 3], done
for l in done:
    assert l == {"event": "done", "strategy": names[l["index"]], "index": l["index"], "of": 4, "ok": True}, l
for i in range(4):
    mine = [l for l in lines if l["index"] == i]
    assert mine[-1]["event"] == "done" and len(mine) > 1, mine[-2:]
    assert all(l["event"] == "progress" and set(l) == {"event", "strategy", "index", "of", "simulated_s", "stop_s",
               "fraction", "total_fraction", "elapsed_s", "eta_s"} for l in mine[:-1]), mine[:3]
    # a strategy's fraction never goes back; its last progress line is at 100 %
    fractions = [l["fraction"] for l in mine[:-1]]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0, fractions
totals = [l["total_fraction"] for l in lines if l["event"] == "progress"]
assert totals == sorted(totals) and totals[-1] == 1.0, totals
PY
[ -z "$(ls -A "$TMPDIR")" ] || fail "a finished run left $(ls "$TMPDIR") in \$TMPDIR"

# --- SIGTERM and SIGINT --------------------------------------------------------------------------
# The example with a 40x longer horizon runs for seconds; it is interrupted at its first progress line.
$python -c "
import json, sys
s = json.load(open('examples/mixed-mig-h100.json'))
s['horizon_s'] *= 40
json.dump(s, open(sys.argv[1], 'w'))" "$work/long.json"
set -m  # background jobs get their own process group, so the group can be checked afterwards
for signal in TERM INT; do
  out="$work/result-$signal.json"
  "$exe" simulate "$work/long.json" --jobs 2 --progress json --out "$out" >"$work/$signal.out" 2>"$work/$signal.err" &
  pid=$!
  wait_for_line "$work/$signal.err" '"event":"progress"' "($signal)"
  children=$(pgrep -P $pid || true)
  [ -n "$children" ] || fail "($signal) no strategy process found under $pid"
  ls -d "$TMPDIR"/slicewise-simulate-* >/dev/null 2>&1 || fail "($signal) no temporary folder in \$TMPDIR during the run"
  kill -$signal $pid
  set +e
  wait $pid
  code=$?
  set -e
  expected=$((128 + $(kill -l $signal)))
  [ $code -eq $expected ] || fail "($signal) exit code $code, expected $expected; stderr: $(grep -v '"event"' "$work/$signal.err")"
  [ "$(own_stderr "$work/$signal.err" | grep -v '^{"')" = "slicewise simulate: interrupted by SIG$signal" ] \
    || fail "($signal) stderr: $(grep -v '^{"' "$work/$signal.err")"
  ! grep -q '"event":"done"' "$work/$signal.err" || fail "($signal) a strategy finished before the signal: horizon too short"
  [ -z "$(ls -A "$work" | grep "result-$signal")" ] || fail "($signal) --out written: $(ls -A "$work" | grep "result-$signal")"
  [ ! -s "$work/$signal.out" ] || fail "($signal) printed a table: $(head -c 300 "$work/$signal.out")"
  for child in $children; do
    ! kill -0 "$child" 2>/dev/null || fail "($signal) strategy process $child still alive"
  done
  [ -z "$(pgrep -g $pid || true)" ] || fail "($signal) processes left in the group: $(pgrep -g $pid)"
  [ -z "$(ls -A "$TMPDIR")" ] || fail "($signal) left $(ls "$TMPDIR") in \$TMPDIR"
done

# --- SIGTERM during --uncertainty: between or inside the samples' runs, the same ending ----------
for at in 2 3; do
  "$exe" simulate examples/mixed-mig-h100.json --uncertainty 40 --jobs 2 --progress json \
    --out "$work/result-u$at.json" >"$work/u$at.out" 2>"$work/u$at.err" &
  pid=$!
  wait_for_line "$work/u$at.err" "\"event\":\"uncertainty_progress\",\"of\":40,\"sample\":$at," "(uncertainty)"
  kill -TERM $pid
  set +e
  wait $pid
  code=$?
  set -e
  [ $code -eq 143 ] || fail "(uncertainty, sample $at) exit code $code, expected 143"
  [ "$(own_stderr "$work/u$at.err" | grep -v -e '^{"')" = "slicewise simulate: interrupted by SIGTERM" ] \
    || fail "(uncertainty, sample $at) stderr: $(grep -v -e '^{"' "$work/u$at.err")"
  [ ! -e "$work/result-u$at.json" ] || fail "(uncertainty, sample $at) --out written"
  [ -z "$(ls -A "$TMPDIR")" ] || fail "(uncertainty, sample $at) left $(ls "$TMPDIR") in \$TMPDIR"
done

# --- SIGKILL -------------------------------------------------------------------------------------
"$exe" simulate "$work/long.json" --jobs 2 --progress json --out "$work/result-KILL.json" >/dev/null 2>"$work/KILL.err" &
pid=$!
wait_for_line "$work/KILL.err" '"event":"progress"' "(KILL)"
children=$(pgrep -P $pid || true)
[ -n "$children" ] || fail "(KILL) no strategy process found under $pid"
set +e
{ kill -KILL $pid; wait $pid; } 2>/dev/null  # no "Killed" line from the shell
set -e
for _ in $(seq 1 100); do
  alive=""
  for child in $children; do kill -0 "$child" 2>/dev/null && alive="$alive $child"; done
  [ -z "$alive" ] && break
  sleep 0.05
done
[ -z "$alive" ] || fail "(KILL) strategy processes$alive still alive 5 s after their parent was killed"
[ ! -e "$work/result-KILL.json" ] || fail "(KILL) --out written"
# The killed process could not remove its temporary folder; the next simulate does (its owner is gone).
stale=$(ls -d "$TMPDIR"/slicewise-simulate-$pid-* 2>/dev/null || true)
[ -n "$stale" ] || fail "(KILL) no temporary folder of process $pid to clean: $(ls "$TMPDIR")"
"$exe" simulate examples/seed-l40s-timeslicing.json --progress none >/dev/null
[ -z "$(ls -A "$TMPDIR")" ] || fail "(KILL) the next simulate left $(ls "$TMPDIR") in \$TMPDIR"
echo "simulate_signal_test: all checks passed"
