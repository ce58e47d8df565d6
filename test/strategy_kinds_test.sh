#!/usr/bin/env bash
# scripts/check-strategy-kinds must catch what it is for: a tree with a test of a strategy kind in
# each form, outside scenario/strategies/, fails with each line named; the same tree without them
# passes. Usage: strategy_kinds_test.sh SOURCE_DIR
set -euo pipefail
check=$1/scripts/check-strategy-kinds
work=$(mktemp -d /tmp/sw-strategy-kinds-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$work/models" "$work/scenario/strategies" "$work/report" "$work/gui"
cp "$1/models/strategy_kind.cpp" "$work/models/"
# Allowed: naming a kind, comparing two kinds, tests inside the policies, comments.
cat > "$work/report/ok.cpp" <<'CPP'
auto spec = sized(StrategyKind::dedicated);
if (a.kind == b.kind) return;
// a comment may say kind == "mps"
if (event.kind == "repartition") return;
CPP
printf 'if (spec.kind == StrategyKind::mps) return;\n' > "$work/scenario/strategies/mps.cpp"
"$check" "$work" >"$work/ok.out" || fail "a tree without kind tests failed: $(cat "$work/ok.out")"
# Tests of a kind, one per form.
cat > "$work/report/bad.cpp" <<'CPP'
if (spec.kind == StrategyKind::hami) return;
if (models::StrategyKind::vgpu != kind) return;
  case models::StrategyKind::mig:
if (s.kind == "mig_time_slicing") return;
CPP
printf 'const bool mig = *kind == "mig";\n' > "$work/gui/bad.cpp"
set +e
"$check" "$work" >"$work/bad.out"
code=$?
set -e
[ $code -eq 1 ] || fail "planted kind tests: exit $code, expected 1"
for expected in "report/bad.cpp:1:" "report/bad.cpp:2:" "report/bad.cpp:3:" "report/bad.cpp:4:" "gui/bad.cpp:1:"; do
  grep -qF "$expected" "$work/bad.out" || fail "not reported: $expected"$'\n'"$(cat "$work/bad.out")"
done
[ "$(grep -c '^  ' "$work/bad.out")" -eq 5 ] || fail "reported more than the planted tests: $(cat "$work/bad.out")"
echo "strategy kinds: 5 planted kind tests caught, allowed lines passed"
