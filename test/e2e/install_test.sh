#!/usr/bin/env bash
# `cmake --install` puts slicewise, slicewise-gui, the desktop entry and the catalogs where a user
# (or a desktop menu) finds them, and the installed CLI runs on the installed catalogs.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT

cmake --install "$build" --prefix "$prefix" >/dev/null
for file in bin/slicewise share/slicewise/data/gpus.json share/slicewise/data/prices/aws.json; do
  [ -e "$prefix/$file" ] || { echo "not installed: $file" >&2; exit 1; }
done
if [ -e "$build/gui/slicewise-gui" ]; then
  [ -x "$prefix/bin/slicewise-gui" ] || { echo "not installed: bin/slicewise-gui" >&2; exit 1; }
  desktop="$prefix/share/applications/slicewise-gui.desktop"
  grep -qx 'Exec=slicewise-gui %f' "$desktop" || { echo "desktop entry lacks its Exec line" >&2; exit 1; }
  grep -qx 'Terminal=false' "$desktop" || { echo "desktop entry would open a terminal" >&2; exit 1; }
fi
# The installed CLI on the installed catalogs (the GUI runs the `slicewise` beside it).
SLICEWISE_DATA_DIR="$prefix/share/slicewise/data" "$prefix/bin/slicewise" validate \
  "$source/examples/mixed-mig-h100.json" >/dev/null
echo "install: ok ($prefix)"
