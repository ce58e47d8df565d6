#!/usr/bin/env bash
# `slicewise strategies --example`, the scenario that sets every key of every strategy kind as
# scenario/strategy_params.cpp declares it, validates and simulates: each declared key is read,
# checked and run by the real program.
#   strategies_test.sh SLICEWISE SOURCE_DIR
set -euo pipefail
exe=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$exe" strategies --example > "$work/every-strategy-key.json"
"$exe" validate "$work/every-strategy-key.json"
"$exe" simulate "$work/every-strategy-key.json" --out "$work/result.json" > /dev/null
for kind in dedicated time_slicing mps mig mig_time_slicing hami vgpu; do
  grep -q "\"strategy\": \"$kind\"\|\"name\": \"$kind\"" "$work/result.json" || { echo "no result of $kind" >&2; exit 1; }
done
