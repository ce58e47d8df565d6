#!/usr/bin/env bash
# scripts/check-layering must catch what it is for: a tree with one include against each rule fails
# with each named, and the same tree without them passes.
# Usage: layering_test.sh SOURCE_DIR
set -euo pipefail
check=$1/scripts/check-layering
work=$(mktemp -d /tmp/sw-layering-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
for d in core models traces pricing calibration scenario sim report/render advisor cli gui; do mkdir -p "$work/$d"; done
# Allowed: downwards, within a folder, render on report, gui on sim/load_source.hpp, system headers.
printf '#include "core/error.hpp"\n#include <vector>\n' > "$work/models/ok.hpp"
printf '#include "scenario/scenario.hpp"\n#include "traces/readers.hpp"\n' > "$work/sim/ok.cpp"
printf '#include "report/roi_report.hpp"\n' > "$work/report/render/ok.cpp"
printf '#include "sim/load_source.hpp"\n#include "report/render/html.hpp"\n' > "$work/gui/ok.cpp"
printf '#include "sim/engine.hpp"\n#include "report/render/html.hpp"\n#include "advisor/advice.hpp"\n' > "$work/cli/ok.cpp"
printf '#include "report/costing.hpp"\n' > "$work/advisor/ok.cpp"
"$check" "$work" >"$work/ok.out" || fail "a tree without violations failed: $(cat "$work/ok.out")"
# Against the layering: upwards, sideways, gui on the engine.
printf '#include "scenario/scenario.hpp"\n' > "$work/core/up.hpp"
printf '#include "pricing/price_table.hpp"\n' > "$work/traces/sideways.cpp"
printf '#include "report/render/html.hpp"\n' > "$work/report/up.cpp"
printf '#include "advisor/advice.hpp"\n' > "$work/report/render/sideways.cpp"
printf '#include "sim/engine.hpp"\n' > "$work/gui/engine.cpp"
printf '#include <QString>\n' > "$work/scenario/qt.hpp"
set +e
"$check" "$work" >"$work/bad.out"
code=$?
set -e
[ $code -eq 1 ] || fail "planted violations: exit $code, expected 1"
for expected in \
  "core/up.hpp includes scenario/scenario.hpp: core (layer 0) may include only lower layers" \
  "traces/sideways.cpp includes pricing/price_table.hpp: traces (layer 1) may include only lower layers" \
  "report/up.cpp includes report/render/html.hpp: report (layer 3) may include only lower layers" \
  "report/render/sideways.cpp includes advisor/advice.hpp: report/render (layer 4) may include only lower layers" \
  "gui/engine.cpp includes sim/engine.hpp: gui may use only sim/load_source.hpp of sim/" \
  "scenario/qt.hpp"; do
  grep -qF "$expected" "$work/bad.out" || fail "not reported: $expected"$'\n'"$(cat "$work/bad.out")"
done
[ "$(grep -cE '^  [a-z/_]+\.[ch]pp includes ' "$work/bad.out")" -eq 5 ] || fail "reported more than the planted includes: $(cat "$work/bad.out")"
echo "layering: 6 planted violations caught, allowed includes passed"
