#!/usr/bin/env bash
# scripts/check-file-sizes must catch what it is for: a tree whose product files are 450 lines at
# most passes; one with a 451-line source fails naming it, while a longer test file or GPU probe
# does not count. Usage: file_sizes_test.sh SOURCE_DIR
set -euo pipefail
check=$1/scripts/check-file-sizes
work=$(mktemp -d /tmp/sw-file-sizes-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$work/sim" "$work/test/sim" "$work/calibration/probes"
lines() { local i; for ((i = 0; i < $1; i++)); do echo '// a line'; done; }
lines 450 > "$work/sim/at_limit.cpp"
lines 900 > "$work/test/sim/long_test.cpp"
lines 900 > "$work/calibration/probes/probe_common.hpp"
"$check" "$work" >"$work/ok.out" || fail "a tree within the limit failed: $(cat "$work/ok.out")"
lines 451 > "$work/sim/too_long.hpp"
set +e
"$check" "$work" >"$work/bad.out"
code=$?
set -e
[ "$code" -eq 1 ] || fail "a 451-line file passed (exit $code)"
grep -q "sim/too_long.hpp: 451 lines" "$work/bad.out" || fail "the long file is not named: $(cat "$work/bad.out")"
! grep -q "at_limit\|long_test\|probe_common" "$work/bad.out" || fail "a file that does not count was named"
