#!/usr/bin/env bash
# One device call for the user's call (host in -> host out): build the
# benchmarks and the CLI, run the kernel-only rows (bench_closure_gpu --user),
# every bench_user_call row on the GPU, the CLI's all-pairs rows (|V| = 65536
# without output, |V| = 30000 with -o r.npy) and optionally GPU suites
# (TESTS="test_cuda_closure test_cuda_hostpath"). Logs and CSVs go to $OUT.
#   source .deps/unpack.sh unpack; bash bench/run_user_call_device.sh
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${BUILD_DIR:-build}
G=${GRAPH_DIR:-$(mktemp -d)}
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
L=${LOG_DIR:-/tmp/user_call_logs}
mkdir -p "$L"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
nproc
cmake -S . -B "$B" -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release \
  -DGSP_BUILD_EXAMPLES=OFF -DGSP_PYTHON="$(which python3)" > "$L/cmake.log" 2>&1 || { tail -20 "$L/cmake.log"; exit 1; }
cmake --build "$B" -j16 --target gsp_cuda gsp_cli bench_user_call bench_closure_gpu ${TESTS:-} > "$L/build.log" 2>&1 \
  || { grep -E "error" "$L/build.log" | head -30; tail -5 "$L/build.log"; exit 1; }
stamp built
for t in ${TESTS:-}; do
  timeout "${TEST_TIMEOUT:-120}" "$B/tests/$t" --jobs 8 > "$L/$t.log" 2>&1
  echo "$t: rc=$? $(grep -o 'Tested: .*' "$L/$t.log" | tail -1)"
  grep -B2 -A6 "Assertion Failed\|CRASH\|signal" "$L/$t.log" | head -24
done
for t in ${TESTS:-}; do grep -qE "Failing: [1-9]|Crashing: [1-9]" "$L/$t.log" && cp "$L/$t.log" "$OUT/"; done
stamp tests
if [ -z "${SKIP_KERNEL:-}" ]; then
  timeout 120 "$B/bench/bench_closure_gpu" --user --csv "$OUT/kernel.csv" > "$L/kernel.log" 2>&1
  echo "kernel rc=$?"; sed -n '/^device  /,$p' "$L/kernel.log"
  stamp kernel
fi
GSP_BURBLE=${TRACE:-0} timeout "${USER_TIMEOUT:-240}" "$B/bench/bench_user_call" --backend cuda --reps "${REPS:-2}" \
  --csv "$OUT/user_call.csv" ${USER_ARGS:-} 2> "$OUT/stage_trace.log"
echo "user_call rc=$?"
if [ -n "${CPU_ROWS:-}" ]; then
  timeout "${CPU_TIMEOUT:-120}" "$B/bench/bench_user_call" --backend cpu --reps 1 --rows "$CPU_ROWS" --csv "$OUT/user_call_cpu.csv"
fi
stamp user_call
GSP="$B/gsp"
"$GSP" generate random --n 65536 --m 262144 --wmin 1 --wmax 4096 --type int32 -o "$G/r64k.gr" > /dev/null
"$GSP" generate random --n 30000 --m 240000 --wmin 1 --wmax 4096 --type int32 -o "$G/r30k.gr" > /dev/null
stamp generated
/usr/bin/time -f "wall %e s, max rss %M KiB" timeout 120 "$GSP" apsp "$G/r64k.gr" --no-sample -v -t int32 2>&1 
stamp apsp64k
/usr/bin/time -f "wall %e s, max rss %M KiB" timeout 120 "$GSP" apsp "$G/r30k.gr" --no-sample -v -t int32 -o "$G/r.npy" 2>&1 
ls -l "$G/r.npy"; rm -f "$G/r.npy"
dd if=/dev/zero of="$G/dd.bin" bs=64M count=32 oflag=direct 2>&1 | tail -1; rm -f "$G/dd.bin"
stamp done
