#!/usr/bin/env bash
# The CUDA backend as a run-time plugin (docs/design.md), in every build:
#   check_plugin.sh <build dir> <graph> <work dir> [<dir holding libcuda.so.1>]
# - libgsp.so and gsp link no CUDA library; the plugin (in a CUDA build)
#   exports its entry and the entry of the test settings, nothing else;
# - without the plugin, gsp --version says why and --backend cuda fails
#   with that reason (GSP_NO_DEVICE) while the CPU still works: the loader
#   is in a build without CUDA too, so it looks for a plugin installed later;
# - with a driver (the toolkit's stub libcuda.so when no GPU is here) the
#   plugin loads and its own device check answers.
set -euo pipefail
build=$1 graph=$2 work=$3 driver=${4:-}
fail() { echo "cuda plugin: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
gsp=$build/gsp plugin=$build/libgsp_cuda.so
for f in "$build/libgsp.so" "$gsp"; do
  if readelf -d "$f" | grep -E 'NEEDED.*lib(cuda|cudart|cublas|cublasLt|cusparse)\.so'; then
    fail "$f links a CUDA library"
  fi
done
if [ -f "$plugin" ]; then
  syms=$(nm -D --defined-only "$plugin" | awk '{print $3}' | sort | tr '\n' ' ')
  [ "$syms" = "gsp_cuda_plugin_open gsp_cuda_plugin_testing " ] || fail "the plugin exports: $syms"
fi

v=$(GSP_CUDA_PLUGIN="$work/none.so" "$gsp" --version)
case $v in *"CUDA backend is not installed"*) ;; *) fail "without the plugin: $v" ;; esac
set +e
err=$(GSP_CUDA_PLUGIN="$work/none.so" "$gsp" apsp --backend cuda "$graph" -o "$work/d.npy" 2>&1)
rc=$?
set -e
[ $rc -ne 0 ] || fail "--backend cuda without the plugin succeeded"
case $err in *"CUDA backend is not installed"*) ;; *) fail "--backend cuda without the plugin: $err" ;; esac
GSP_CUDA_PLUGIN="$work/none.so" "$gsp" apsp --backend cpu "$graph" -o "$work/d.npy" >/dev/null ||
  fail "the CPU backend failed without the plugin"

if [ -n "$driver" ]; then
  [ -f "$plugin" ] || fail "$plugin not built"
  v=$(LD_LIBRARY_PATH="$driver${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" GSP_CUDA_PLUGIN="$plugin" "$gsp" --version)
  case $v in *"stub library"*) ;; *) fail "with the stub driver the plugin should answer: $v" ;; esac
fi
echo "cuda plugin: checks passed"
