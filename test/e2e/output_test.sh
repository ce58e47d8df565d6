#!/usr/bin/env bash
# Outputs that never destroy or lie (issue: hardening):
#  - a report cut short by a full disk (here a file-size limit) is an error, not "report written",
#    and leaves the old file and no temporary file; a Markdown report's figures with it, and no
#    figures folder;
#  - a special file at --out (a FIFO standing in for /dev/null) is refused and left as it was, for
#    report, simulate and trace convert;
#  - a path the system refuses (a symlink loop, a name too long) exits 1 with the path and the
#    reason, never "internal error"; a price table that is a link loop is named as one.
# Usage: output_test.sh SLICEWISE_EXE SOURCE_DIR
set -euo pipefail
exe=$1
src=$2
cd "$src"
work=$(mktemp -d /tmp/sw-output-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
result=test/data/results/seed-report.json

# --- a PDF cut short by a full disk -------------------------------------------------------------
echo "old" > "$work/r.pdf"
set +e
# SIGXFSZ ignored: writes past the 16 KiB limit fail with EFBIG instead of killing the process.
(trap '' XFSZ; ulimit -f 16; exec "$exe" report "$result" --out "$work/r.pdf") >"$work/pdf.out" 2>"$work/pdf.err"
code=$?
set -e
[ "$code" -eq 1 ] || fail "report on a full disk exited $code, expected 1 ($(cat "$work/pdf.err"))"
grep -q "written" "$work/pdf.out" && fail "report on a full disk said: $(cat "$work/pdf.out")"
grep -q "$work/r.pdf: cannot write: " "$work/pdf.err" || fail "no located message: $(cat "$work/pdf.err")"
[ "$(cat "$work/r.pdf")" = "old" ] || fail "the old r.pdf was not kept"
[ "$(ls -A "$work" | grep -c tmp || true)" -eq 0 ] || fail "a temporary file was left: $(ls -A "$work")"

# --- a Markdown report and its figures are one output: all written, or none and no folder ------
echo "old" > "$work/m.md"
set +e
(trap '' XFSZ; ulimit -f 16; exec "$exe" report "$result" --format md --out "$work/m.md") >"$work/md.out" 2>"$work/md.err"
code=$?
set -e
[ "$code" -eq 1 ] || fail "a Markdown report on a full disk exited $code, expected 1 ($(cat "$work/md.err"))"
grep -q "cannot write: File too large" "$work/md.err" || fail "no located message: $(cat "$work/md.err")"
[ "$(cat "$work/m.md")" = "old" ] || fail "the old m.md was not kept"
[ ! -e "$work/m-figures" ] || fail "a figures folder was left: $(ls -A "$work/m-figures")"
[ "$(ls -A "$work" | grep -c tmp || true)" -eq 0 ] || fail "a temporary file was left: $(ls -A "$work")"
"$exe" report "$result" --format md --out "$work/m.md" >/dev/null
[ "$(ls "$work/m-figures" | grep -c '\.svg$')" -ge 3 ] || fail "the figures were not written: $(ls -A "$work/m-figures")"

# --- a special file at --out is refused, never replaced ------------------------------------------
mkfifo "$work/pipe"
for command in "report $result --out $work/pipe --format md" \
               "simulate examples/seed-l40s-timeslicing.json --progress none --out $work/pipe" \
               "trace convert test/data/traces/native.csv --to native --out $work/pipe"; do
  set +e
  # shellcheck disable=SC2086
  timeout 60 "$exe" $command >/dev/null 2>"$work/special.err"
  code=$?
  set -e
  [ "$code" -eq 1 ] || fail "'$command' exited $code, expected 1 ($(cat "$work/special.err"))"
  grep -q "$work/pipe.*not a regular file (a FIFO)" "$work/special.err" || fail "'$command': $(cat "$work/special.err")"
  [ -p "$work/pipe" ] || fail "'$command' replaced the FIFO"
done
# --- a path the system refuses is the user's error (exit 1, path and reason), not an internal one ---
ln -s loop "$work/loop"
long=$(printf 'n%.0s' $(seq 1 300))
for command in "simulate examples/seed-l40s-timeslicing.json --progress none --out $work/loop/r.json" \
               "simulate examples/seed-l40s-timeslicing.json --progress none --out $work/$long.json" \
               "report $result --out $work/loop/r.md" \
               "sweep examples/sweep-seed-users.json --progress none --out $work/loop/s" \
               "merge $work/loop/a --out $work/merged"; do
  set +e
  # shellcheck disable=SC2086
  "$exe" $command >/dev/null 2>"$work/path.err"
  code=$?
  set -e
  [ "$code" -eq 1 ] || fail "'$command' exited $code, expected 1 ($(cat "$work/path.err"))"
  grep -q "internal error" "$work/path.err" && fail "'$command': $(cat "$work/path.err")"
  grep -qE "^slicewise: $work/(loop|n+).*: (Too many levels of symbolic links|File name too long)$" "$work/path.err" \
    || fail "'$command': $(cat "$work/path.err")"
done

# --- a price table that is a link loop is named as one, not as an unknown table ------------------
ln -s prices.json "$work/prices.json"
sed 's|"table": "aws"|"table": "prices.json"|' examples/seed-l40s-timeslicing.json > "$work/looped.json"
grep -q '"table": "prices.json"' "$work/looped.json" || fail "the example no longer names the aws table"
set +e
"$exe" validate "$work/looped.json" >/dev/null 2>"$work/table.err"
code=$?
set -e
[ "$code" -eq 1 ] || fail "a looped price table exited $code ($(cat "$work/table.err"))"
grep -qx "$work/looped.json: /pricing/table: price table file $work/prices.json: Too many levels of symbolic links" \
  "$work/table.err" || fail "looped price table: $(cat "$work/table.err")"
echo "output tests passed"
