#!/usr/bin/env bash
# The device calls of an SSSP / msssp round, one phase list per call (each
# call must stay under ~9 minutes on one H200):
#   bench   R-MAT-21 and grid-4096 single source (delta, auto, auto+parents,
#           phase lines), all pairs |V| = 65536 with and without parents; the
#           graphs dumped for scipy, whose dijkstra runs on one core beside
#           the GPU suites of the same call (or alone at the end);
#   cpu     the CPU backend's single-source rows (all cores);
#   suites  GPU suites, one after another (SUITES="name:timeout ...");
#   fuzz    the libFuzzer campaign when build-fuzzbin/ was carried;
#   ncu     Nsight Compute on the kernels named in NCU_KERNELS (a regex;
#           default the parent pass) of one R-MAT-21 auto+parents run;
#   host    the host's page size settings and cores (for the host-bound
#           result copies).
# Usage (repository root, device machine; carry .deps):
#   source .deps/unpack.sh unpack
#   PHASES="bench suites" SUITES="test_cuda_sssp:300" bash bench/run_device_session.sh
set -u -o pipefail
OUT=${OUT:-$PWD/out}
B=${BUILD_DIR:-build-session}
DUMP=/tmp/gsp_sssp_dump
L=/tmp/session_logs # the logs travel back as one archive
PHASES=${PHASES:-bench cpu suites}
SUITES=${SUITES:-test_cuda_sssp:300 test_cuda_msssp:150}
FUZZ_SECONDS=${FUZZ_SECONDS:-180}
mkdir -p "$OUT" "$L"
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
has() { case " $PHASES " in *" $1 "*) return 0 ;; esac; return 1; }
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$L/gpu.txt"

targets="bench_sssp"
has suites && targets="$targets $(echo "$SUITES" | tr ' ' '\n' | sed 's/:.*//' | tr '\n' ' ')"
cmake -S . -B "$B" -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release \
  -DGSP_BUILD_EXAMPLES=OFF > "$L/cmake.log" 2>&1 || { tail -20 "$L/cmake.log"; exit 1; }
# shellcheck disable=SC2086
cmake --build "$B" -j16 --target $targets > "$L/build.log" 2>&1 \
  || { grep -E "error" "$L/build.log" | head -30; exit 1; }
stamp built

BS="$B/bench/bench_sssp --skip-apsp --skip-bf --skip-apsp-big --max-seconds 3"
spid=""
if has bench; then
  rm -rf "$DUMP" && mkdir -p "$DUMP"
  timeout 90 $BS --backend cuda --graphs rmat --algos delta,auto --reps 9 --dump "$DUMP" --csv "$L/sssp.csv" > "$L/bench_rmat.log" 2>&1
  timeout 120 $BS --backend cuda --graphs grid --algos auto --reps 5 --dump "$DUMP" --csv "$L/sssp.csv" > "$L/bench_grid.log" 2>&1
  stamp "single source done"
  timeout 210 "$B/bench/bench_sssp" --backend cuda --skip-sssp --skip-apsp --skip-bf --skip-fw --apsp-cpu-sources 0 \
    --reps 3 --apsp-parent-reps 3 --csv "$L/msssp.csv" > "$L/bench_msssp.log" 2>&1
  stamp "gpu bench done"
  PYTHONUNBUFFERED=1 timeout 150 python3 bench/bench_sssp_scipy.py "$DUMP" 2 60 > "$L/scipy.log" 2>&1 &
  spid=$!
fi
fpid=""
if has fuzz && [ -x build-fuzzbin/fuzz_mtx ]; then
  ( export LD_LIBRARY_PATH=$PWD/build-fuzzbin; OUT=$L FUZZ_WORK=/tmp/fz \
    nice -n 19 bash tests/fuzz/run_campaign.sh build-fuzzbin "$FUZZ_SECONDS" 2 > "$L/fuzz_table.txt" 2>&1 ) &
  fpid=$!
fi
: > "$L/suites.txt"
if has suites; then
  for s in $SUITES; do
    t=${s%%:*}
    timeout "${s##*:}" "$B/tests/$t" --jobs 4 --verbose > "$L/$t.log" 2>&1
    echo "$t: rc=$? $(grep -o 'Tested: .*' "$L/$t.log" | tail -1)" >> "$L/suites.txt"
    grep -B1 -A6 "Assertion Failed\|CRASH\|Timed out" "$L/$t.log" | head -20 >> "$L/suites.txt"
  done
  stamp "suites done"
fi
[ -n "$spid" ] && wait "$spid" && grep '^csv,' "$L/scipy.log" | sed 's/^csv,//' >> "$L/sssp.csv"
[ -n "$fpid" ] && wait "$fpid"
if has cpu; then
  timeout 120 $BS --backend cpu --algos delta,auto --reps 3 --csv "$L/sssp.csv" > "$L/bench_cpu.log" 2>&1
  stamp "cpu rows done"
fi

if has host; then
  { echo "THP enabled: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1)"
    echo "THP defrag: $(cat /sys/kernel/mm/transparent_hugepage/defrag 2>&1)"
    echo "cores: $(nproc)"; free -g | head -2; } > "$L/host.txt"
fi
if has ncu; then
  timeout 240 ncu --clock-control none -k "regex:${NCU_KERNELS:-tree_strict}" -c "${NCU_COUNT:-1}" \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats \
    --section LaunchStats --section SchedulerStats \
    $BS --backend cuda --graphs rmat --algos auto --reps 1 > "$L/ncu.log" 2>&1
  stamp "ncu done"
fi

tar -C "$L" -czf "$OUT/session_logs.tar.gz" .
echo "==== summary ($(head -1 "$L/gpu.txt"))"
cat "$L/suites.txt"
for f in bench_rmat bench_grid; do
  [ -f "$L/$f.log" ] && grep -hE '^\| (rmat|grid)|^\|   phases' "$L/$f.log" | grep -v skipped | sed 's/^/cuda  /'
done
[ -f "$L/bench_cpu.log" ] && grep -E '^\| (rmat|grid)' "$L/bench_cpu.log" | grep -v skipped | sed 's/^/cpu   /'
[ -f "$L/scipy.log" ] && grep -E '^\| (rmat|grid)' "$L/scipy.log" | sed 's/^/scipy /'
[ -f "$L/bench_msssp.log" ] && grep -E '^\| gsp_msssp|^\|   phases' "$L/bench_msssp.log"
[ -f "$L/fuzz_table.txt" ] && grep -E '^\|' "$L/fuzz_table.txt"
[ -f "$L/host.txt" ] && cat "$L/host.txt"
[ -f "$L/ncu.log" ] && grep -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Memory Throughput|L2 Cache Throughput|Compute \(SM\)|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit|Warp Cycles Per Issued|Stall|Eligible|Issued Warp|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth" "$L/ncu.log" | head -60
exit 0
