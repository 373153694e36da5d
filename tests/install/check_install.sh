#!/usr/bin/env bash
# Install the built tree into a scratch prefix, then build and run a program
# against it twice: through find_package(gsp) and through pkg-config.
set -euo pipefail
build=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/cmake" >/dev/null
"$work/cmake/consumer"
pc=$(ls -d "$work"/prefix/lib*/pkgconfig)
libdir=$(dirname "$pc")
fail() { echo "install: $*" >&2; exit 1; }
# The CUDA backend is the plugin libgsp_cuda.so, loaded at run time: nothing
# else links a CUDA library, and only find_package(gsp COMPONENTS cuda)
# needs the CUDA toolkit.
cudalibs='lib(cuda|cudart|cublas|cublasLt|cusparse)\.so'
for f in "$libdir"/libgsp.so "$work/prefix/bin/gsp" "$work/cmake/consumer"; do
  if readelf -d "$f" | grep -E "NEEDED.*$cudalibs"; then fail "$f links a CUDA library"; fi
done
# a consumer configured where CMake finds no CUDA toolkit, run without the plugin
cmake -S "$src/consumer" -B "$work/cmake_nocuda" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON >/dev/null || fail "find_package(gsp) needs CUDA"
cmake --build "$work/cmake_nocuda" >/dev/null
out=$(GSP_CUDA_PLUGIN="$work/no-plugin.so" "$work/cmake_nocuda/consumer") || fail "consumer without CUDA failed: $out"
if [ -f "$build/libgsp_cuda.so" ]; then
  [ -f "$libdir/libgsp_cuda.so" ] || fail "libgsp_cuda.so not installed"
  case $out in *"is not installed"*) ;; *) fail "without the plugin, gsp_cuda_available says: $out" ;; esac
  cmake -S "$src/consumer" -B "$work/cmake_cuda" -DCMAKE_PREFIX_PATH="$work/prefix" \
        -DGSP_CONSUMER_COMPONENTS=cuda >/dev/null || fail "find_package(gsp COMPONENTS cuda) failed"
  cmake --build "$work/cmake_cuda" >/dev/null
  "$work/cmake_cuda/consumer" >/dev/null
  if cmake -S "$src/consumer" -B "$work/cmake_cuda_missing" -DCMAKE_PREFIX_PATH="$work/prefix" \
       -DGSP_CONSUMER_COMPONENTS=cuda -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON >/dev/null 2>&1; then
    fail "find_package(gsp COMPONENTS cuda) succeeded without the CUDA toolkit"
  fi
fi
cc -o "$work/pc_consumer" "$src/consumer/main.c" $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs gsp) \
   -Wl,-rpath,"$libdir"
"$work/pc_consumer"
# the installed command line answers a path query on the bundled graph:
# DIMACS ids 1 -> 2 of helsinki_drive, checked against the build tree's
# own answer, and reports a missing file with exit code 3
gsp="$work/prefix/bin/gsp"
[ -x "$gsp" ] || { echo "gsp command line not installed" >&2; exit 1; }
graph="$src/../../data/helsinki_drive.gr.gz"
"$gsp" --help >/dev/null
untimed() { sed -E 's/, [0-9.]+ s\)/)/'; } # the timing differs run to run
inst=$("$gsp" path -q "$graph" 1 2 2>&1 | untimed || true)
tree=$("$build/gsp" path -q "$graph" 1 2 2>&1 | untimed || true)
[ -n "$inst" ] && [ "$inst" = "$tree" ] || { echo "installed gsp path differs: '$inst' vs '$tree'" >&2; exit 1; }
set +e
"$gsp" info "$work/no-such-file.gr" >/dev/null 2>&1
rc=$?
set -e
[ $rc -eq 3 ] || { echo "installed gsp: missing input gave exit code $rc, expected 3" >&2; exit 1; }
# the MPI companion library, when this gsp has it: find_package(gsp
# COMPONENTS mpi) and pkg-config gsp_mpi, each run on 2 ranks
if [ -f "$work/prefix/include/gsp_mpi.h" ]; then
  cmake -S "$src/consumer_mpi" -B "$work/cmake_mpi" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
  cmake --build "$work/cmake_mpi" >/dev/null
  cc -o "$work/pc_consumer_mpi" "$src/consumer_mpi/main.c" \
     $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs gsp_mpi) -Wl,-rpath,"$libdir"
  mpiexec=${GSP_MPIEXEC:-mpiexec -n 2}
  $mpiexec "$work/cmake_mpi/consumer_mpi"
  $mpiexec "$work/pc_consumer_mpi"
  echo "install: MPI consumers passed"
fi
echo "install: find_package and pkg-config consumers passed"
