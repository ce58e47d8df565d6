#!/usr/bin/env bash
# scripts/check-format must catch what it is for: a misformatted file fails with its name and diff,
# the same file formatted passes. Usage: format_test.sh SOURCE_DIR
set -euo pipefail
check=$1/scripts/check-format
command -v "${CLANG_FORMAT:-clang-format-14}" >/dev/null 2>&1 || { echo "clang-format-14 not installed"; exit 77; }
work=$(mktemp -d /tmp/sw-format-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
printf 'int  f(int* x){return *x;}\n' > "$work/bad.cpp"
set +e
"$check" "$work/bad.cpp" >"$work/bad.out"
code=$?
set -e
[ $code -eq 1 ] || fail "a misformatted file: exit $code, expected 1: $(cat "$work/bad.out")"
grep -qF "check-format: $work/bad.cpp is not formatted; run scripts/check-format --fix $work/bad.cpp" "$work/bad.out" ||
  fail "the file is not named: $(cat "$work/bad.out")"
grep -qxF '  +int f(int* x) { return *x; }' "$work/bad.out" || fail "no diff shown: $(cat "$work/bad.out")"
"$check" --fix "$work/bad.cpp"
[ "$(cat "$work/bad.cpp")" = 'int f(int* x) { return *x; }' ] || fail "--fix wrote: $(cat "$work/bad.cpp")"
"$check" "$work/bad.cpp" >"$work/ok.out" || fail "the formatted file failed: $(cat "$work/ok.out")"
echo "format: a misformatted file caught, its fix passes"
