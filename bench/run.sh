#!/usr/bin/env bash
# The benchmark driver: one build directory, named suites, one CSV per
# benchmark in bench/results/<benchmark>_<device>.csv (the index is
# bench/results/README.md).
#
#   bench/run.sh SUITE...            e.g. bench/run.sh closure sssp
#
# Suites (GPU ones need the CUDA backend and a GPU):
#   closure    bench_closure_gpu (kernel, device-resident input; naive GPU,
#              end-to-end and CPU-backend rows), its --focus rows (successors,
#              bool tensor cores), its --types rows (the measured ceiling of
#              every type and semiring, each kernel beside it with its phase
#              times), its --diag rows (the diagonal tile alone; n = 2048,
#              4096, 16384 with phases), its --halves and --fold rows (the
#              other tiles in half-width blocks; the next stripe's update,
#              or all of the next round's side chain, in their grid: on and
#              off), scipy's floyd_warshall beside it
#   sssp       bench_sssp single source on R-MAT-21 and grid-4096: CUDA
#              (delta, auto, auto+parents with phase rows), the CPU backend,
#              scipy's dijkstra on the same graphs
#   msssp      bench_sssp all pairs: Okuyama's four topologies at |V| = 4677
#              (msssp against Floyd-Warshall), |V| = 65536 with parents and a
#              batch sweep, Bellman-Ford rows; scipy's dijkstra on the graphs
#   apsp       bench_apsp (gsp_apsp on the Tastan-shaped graphs, every
#              algorithm and AUTO) and scipy's johnson on the same graphs
#   ops        bench_ops_gpu (mxv / vxm push, pull, cuSPARSE; mxm) and its
#              SpGEMM rows
#   scale      bench_closure_scale: out-of-core and multi-GPU closure
#              (SCALE_ARGS passes options, e.g. "--parts b --big-n 150000
#              --big-cap 78G")
#   cpu        bench_cpu_ceiling (the kernels' inner loop alone, per type),
#              bench_closure_cpu against scipy's floyd_warshall, same graphs
#              and cores, results compared; other types; successors; each
#              closure row as a fraction of its type's ceiling
#   user       the call as a user makes it (host in, host out):
#              bench_user_call, and bench_closure_gpu --user where it has it
#   user-device  the user suite, then the CLI's all-pairs rows (gsp apsp on
#              |V| = 65536 without output, CLI_REPS times (default 2), and
#              |V| = 30000 with -o FILE.npy,
#              wall time and peak memory) and the disk's write rate: a GPU
#              machine's one call for the user-facing numbers (GSP_BURBLE=1
#              in the environment adds the staged transfers and the decisions)
#   star       bench_star: the sparse star (gsp_apsp's GSP_APSP_SPARSE_STAR,
#              and the factorization object's rows and refactorization)
#              beside AUTO, msssp and Floyd-Warshall on the CPU backend, on
#              k x k grids, Delaunay meshes and the Helsinki graphs, then
#              scipy's shortest_path('D') on the same files
#              (bench_star_scipy.py, one core, extrapolated); one CSV
#   python     bench/bench_python.py (gsp.shortest_path beside scipy); needs
#              `import gspgraph as gsp` to work in $PYTHON
#   headline   the three numbers a GPU change must not move (docs/performance.md):
#              fp32 min-plus closure kernel at n = 16384 (3 runs), single-source
#              SSSP on R-MAT-21 (auto, 9 sources), all pairs of the random
#              |V| = 65536 graph (msssp); one table in headline_<device>.txt
#   python-vs-c  bench/bench_python_vs_c.py: each Python call beside the C
#              user's call on the same input (bench_python_peer), the
#              transitive closure with sparse output, the first call of a
#              process, gsp.shortest_path beside `gsp apsp`; CPU, and the
#              GPU where there is one (python_s / c_s / ratio; needs
#              `import gspgraph as gsp` in $PYTHON, built from this tree);
#              first bench/bench_cli_sample.sh: `gsp apsp` with and without
#              its sample path, beside the C user's call (RESULTS/
#              cli_sample_DEVICE.txt; CLI_SAMPLE_N vertices, default 8192)
#   gpu-tests  the GPU test tiers (tests/CMakeLists.txt): ctest -L gpu-quick,
#              then ctest -L gpu-long, both on the one GPU at once (TEST_JOBS,
#              default 4; GPU_TIERS=gpu-quick runs the first alone), then a
#              tier / suite / seconds / result table in OUT/gpu_tests.txt;
#              non-zero when any test failed
#   all        every suite above but python, cpu and user (which user-device
#              runs; a GPU machine's run)
#
# Environment: BUILD_DIR (default build-bench), OUT (logs; default
# BUILD_DIR/logs), RESULTS (default bench/results), DEVICE (the name in the
# CSV file names; default from nvidia-smi, e.g. nvidia-h200, -xK with K GPUs,
# else the host name), CUDA (ON/OFF, default ON when nvcc is found),
# CUDA_ARCH (default 90a), PYTHON (default python3), JOBS (build jobs),
# GPU_TIERS and TEST_JOBS (gpu-tests).
# Exit status: non-zero when a suite failed (every suite still runs).
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
B=${BUILD_DIR:-build-bench}
OUT=${OUT:-$B/logs}
R=${RESULTS:-bench/results}
PY=${PYTHON:-python3}
mkdir -p "$OUT" "$R"
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
summary=()
status=0
note() { summary+=("$1"); echo "$1"; }
fail() { note "$1"; status=1; }

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
[ $# -eq 0 ] && usage
suites=()
for s in "$@"; do
  case "$s" in
  all) suites+=(closure sssp msssp apsp ops scale user-device gpu-tests) ;;
  closure|sssp|msssp|apsp|ops|scale|cpu|user|user-device|python|python-vs-c|star|headline|gpu-tests) suites+=("$s") ;;
  -h|--help) usage ;;
  *) echo "unknown suite '$s'"; usage ;;
  esac
done

if [ -z "${DEVICE:-}" ]; then
  gpus=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null)
  if [ -n "$gpus" ]; then
    DEVICE=$(echo "$gpus" | head -1 | awk '{ print tolower($1 "-" $2) }')
    k=$(echo "$gpus" | wc -l)
    [ "$k" -gt 1 ] && DEVICE="$DEVICE-x$k"
  else
    DEVICE=$(hostname -s 2>/dev/null || echo host)
  fi
fi
nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm \
  --format=csv > "$OUT/gpu.txt" 2>&1 || echo "no GPU" > "$OUT/gpu.txt"
# NVLink multicast stays off (the library forces it too, before every communicator).
export NCCL_NVLS_ENABLE=0

# ---- one build for every suite ----
targets=()
for s in "${suites[@]}"; do
  case "$s" in
  closure) targets+=(bench_closure_gpu) ;;
  sssp|msssp) targets+=(bench_sssp) ;;
  apsp) targets+=(bench_apsp) ;;
  star) targets+=(bench_star gsp_cli) ;;
  headline) targets+=(bench_closure_gpu bench_sssp) ;;
  ops) targets+=(bench_ops_gpu) ;;
  scale) targets+=(bench_closure_scale) ;;
  cpu) targets+=(bench_closure_cpu bench_cpu_ceiling) ;;
  user) targets+=(bench_user_call bench_closure_gpu) ;;
  user-device) targets+=(bench_user_call bench_closure_gpu gsp_cli) ;;
  python-vs-c) targets+=(bench_python_peer gsp_cli) ;;
  gpu-tests) targets+=(all) ;;
  esac
done
if [ ${#targets[@]} -gt 0 ]; then
  cuda=${CUDA:-$(command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] && echo ON || echo OFF)}
  stamp "configure $B (CUDA $cuda)"
  cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DGSP_CUDA="$cuda" \
    -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90a}" -DGSP_BUILD_EXAMPLES=OFF -DGSP_BUILD_BENCH=ON \
    > "$OUT/cmake.log" 2>&1 || { tail -30 "$OUT/cmake.log"; exit 1; }
  # shellcheck disable=SC2046
  stamp "build $(printf '%s\n' "${targets[@]}" | sort -u | tr '\n' ' ')"
  # shellcheck disable=SC2046
  cmake --build "$B" -j"${JOBS:-$(nproc)}" --target $(printf '%s\n' "${targets[@]}" | sort -u) \
    > "$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
fi
X="$B/bench"

# ---- the suites ----
run_closure() {
  timeout "${CLOSURE_TIMEOUT:-300}" "$X/bench_closure_gpu" --csv "$R/closure_gpu_$DEVICE.csv" \
    > "$OUT/closure.log" 2>&1 || return 1
  timeout 300 "$X/bench_closure_gpu" --focus --csv "$R/closure_gpu_focus_$DEVICE.csv" \
    > "$OUT/closure_focus.log" 2>&1 || return 1
  # every numeric type and semiring against its own measured ceiling, with phase times
  timeout 300 "$X/bench_closure_gpu" --types --csv "$R/closure_gpu_types_$DEVICE.csv" \
    > "$OUT/closure_types.log" 2>&1 || return 1
  grep -E "^ceiling|phases" "$OUT/closure_types.log"
  # the diagonal tile's kernel alone, and the small-n rows with their phases
  timeout 120 "$X/bench_closure_gpu" --diag --csv "$R/closure_gpu_diag_$DEVICE.csv" \
    > "$OUT/closure_diag.log" 2>&1 || return 1
  # the other tiles in half-width blocks where they fit in half a wave, on and off
  timeout 120 "$X/bench_closure_gpu" --halves --csv "$R/closure_gpu_halves_$DEVICE.csv" \
    > "$OUT/closure_halves.log" 2>&1 || return 1
  # the next stripe's update in the other tiles' grid where they take more than a wave, on and off
  timeout 150 "$X/bench_closure_gpu" --fold --csv "$R/closure_gpu_fold_$DEVICE.csv" \
    > "$OUT/closure_fold.log" 2>&1 || return 1
  # scipy's rows share the CSV (impl scipy-fw)
  PYTHONUNBUFFERED=1 timeout 200 "$PY" bench/bench_closure_gpu_scipy.py "${SCIPY_BUDGET:-40}" \
    2> "$OUT/closure_scipy.log" >> "$R/closure_gpu_$DEVICE.csv" || return 1
  sed -n '/^device  /,$p' "$OUT/closure.log"
}

SSSP="--skip-apsp --skip-bf --skip-apsp-big --max-seconds 3"
run_sssp() {
  local dump=/tmp/gsp_sssp_dump f=$R/sssp_gpu_$DEVICE.csv
  rm -rf "$dump" "$f" && mkdir -p "$dump"
  # shellcheck disable=SC2086
  timeout 120 "$X/bench_sssp" $SSSP --backend cuda --graphs rmat --algos delta,auto --reps 9 \
    --dump "$dump" --csv "$f" > "$OUT/sssp_rmat.log" 2>&1 || return 1
  # shellcheck disable=SC2086
  timeout 150 "$X/bench_sssp" $SSSP --backend cuda --graphs grid --algos auto --reps 9 \
    --dump "$dump" --csv "$f" > "$OUT/sssp_grid.log" 2>&1 || return 1
  rm -f "$R/sssp_cpu_$DEVICE.csv"
  # shellcheck disable=SC2086
  timeout 150 "$X/bench_sssp" $SSSP --backend cpu --algos delta,auto --reps 3 \
    --csv "$R/sssp_cpu_$DEVICE.csv" > "$OUT/sssp_cpu.log" 2>&1 || return 1
  PYTHONUNBUFFERED=1 timeout 150 "$PY" bench/bench_sssp_scipy.py "$dump" 2 60 > "$OUT/sssp_scipy.log" 2>&1 || return 1
  grep '^csv,' "$OUT/sssp_scipy.log" | sed 's/^csv,//' >> "$f"
  grep -hE '^\| (rmat|grid)|^\|   phases' "$OUT"/sssp_*.log | grep -v skipped
}

run_msssp() {
  local g f=$R/msssp_gpu_$DEVICE.csv
  g=$(mktemp -d)
  rm -f "$f"
  timeout 300 "$X/bench_sssp" --backend cuda --skip-sssp --reps 5 --apsp-batches 128,256,512,1024 \
    --apsp-parent-reps 3 --dump-dir "$g" --csv "$f" > "$OUT/msssp.log" 2>&1 || { rm -rf "$g"; return 1; }
  PYTHONUNBUFFERED=1 timeout 120 "$PY" bench/apsp_scipy.py "${SCIPY_BUDGET:-8}" \
    "$g"/apsp_random_4677.mtx "$g"/apsp_power-law_4677.mtx "$g"/apsp_ring_4677.mtx \
    "$g"/apsp_random_65536.mtx 2> "$OUT/msssp_scipy.err" > "$OUT/msssp_scipy.log"
  local rc=$?
  rm -rf "$g"
  sed -n '/^All-pairs, /,$p' "$OUT/msssp.log"
  grep -v '^csv,' "$OUT/msssp_scipy.log"
  return $rc
}

run_apsp() {
  local g=/tmp/apsp_graphs spid rc
  rm -rf "$g" && mkdir -p "$g"
  "$X/bench_apsp" --generate-only --write-graphs "$g" > "$OUT/apsp_generate.log" 2>&1 || return 1
  # scipy's johnson runs on one core beside the GPU benchmark
  PYTHONUNBUFFERED=1 "$PY" bench/bench_apsp_scipy.py "$g" --per-graph "${SCIPY_PER_GRAPH:-25}" \
    --csv "$R/apsp_scipy_$DEVICE.csv" > "$OUT/apsp_scipy.log" 2>&1 &
  spid=$!
  timeout 350 "$X/bench_apsp" --backend cuda --max-seconds 8 --budget 230 \
    --csv "$R/apsp_$DEVICE.csv" > "$OUT/apsp.log" 2>&1
  rc=$?
  wait "$spid" || rc=1
  cat "$OUT/apsp.log" "$OUT/apsp_scipy.log"
  return $rc
}

run_star() {
  local g=/tmp/star_graphs
  rm -rf "$g" && mkdir -p "$g"
  "$PY" bench/bench_star_scipy.py "$g" --gsp "$B/gsp" --grids "${STAR_GRIDS:-64,128,256}" \
    --delaunay "${STAR_DELAUNAY:-20000,100000}" --write-only > "$OUT/star_graphs.log" 2>&1 || return 1
  # gsp on every core first, then scipy alone on one (never side by side)
  timeout 500 "$X/bench_star" --grids "" --max-seconds "${STAR_MAX_SECONDS:-40}" --csv "$OUT/star_gsp.csv" \
    "$g"/*.mtx data/helsinki_walk.gr.gz data/helsinki_drive.gr.gz > "$OUT/star.log" 2>&1 || return 1
  PYTHONUNBUFFERED=1 "$PY" bench/bench_star_scipy.py "$g" --gsp "$B/gsp" --grids "${STAR_GRIDS:-64,128,256}" \
    --delaunay "${STAR_DELAUNAY:-20000,100000}" --csv "$OUT/star_scipy.csv" > "$OUT/star_scipy.log" 2>&1 || return 1
  { cat "$OUT/star_gsp.csv"; tail -n +2 "$OUT/star_scipy.csv"; } > "$R/star_$DEVICE.csv"
  cat "$OUT/star.log" "$OUT/star_scipy.log"
}

run_ops() {
  timeout 150 "$X/bench_ops_gpu" --csv "$R/ops_gpu_$DEVICE.csv" > "$OUT/ops.log" 2>&1 || return 1
  timeout 150 "$X/bench_ops_gpu" --spgemm-only --csv "$R/spgemm_gpu_$DEVICE.csv" > "$OUT/spgemm.log" 2>&1 || return 1
  cat "$OUT/ops.log" "$OUT/spgemm.log"
}

run_scale() {
  nvidia-smi topo -m > "$OUT/topo.txt" 2>&1
  # shellcheck disable=SC2086
  timeout "${SCALE_TIMEOUT:-560}" "$X/bench_closure_scale" --csv "$R/closure_scale_$DEVICE.csv" ${SCALE_ARGS:-} \
    > "$OUT/scale.log" 2>&1 || return 1
  grep -E "^bandwidth" "$OUT/scale.log"; sed -n '/^device  /,$p' "$OUT/scale.log"
}

run_cpu() {
  local sizes=${SIZES:-1024,2048,4096} d=0.1 s=42 f=$R/cpu_closure_$DEVICE.csv tmp small large
  tmp=$(mktemp -d)
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  # threads that wait at a barrier sleep instead of spinning, so that the
  # CPU-time rates (tasks/cpu-s) hold on a machine shared with other work
  export OMP_WAIT_POLICY=passive
  "$X/bench_cpu_ceiling" --csv "$R/cpu_ceiling_$DEVICE.csv" || return 1
  "$X/bench_closure_cpu" -n "$sizes" -t fp32 -r 5 -d $d -s $s --csv "$tmp/gsp.csv" || return 1
  # scipy's floyd_warshall is serial; at n >= 4096 it takes minutes a run
  small=$(echo "$sizes" | tr ',' '\n' | awk '$1 < 4096' | paste -sd, -)
  large=$(echo "$sizes" | tr ',' '\n' | awk '$1 >= 4096' | paste -sd, -)
  [ -n "$small" ] && { "$PY" bench/scipy_fw.py -n "$small" -r 5 -d $d -s $s --csv "$tmp/s1.csv" || return 1; }
  [ -n "$large" ] && { "$PY" bench/scipy_fw.py -n "$large" -r 3 --no-warmup -d $d -s $s --csv "$tmp/s2.csv" || return 1; }
  { cat "$tmp/gsp.csv"; for x in "$tmp/s1.csv" "$tmp/s2.csv"; do [ -f "$x" ] && tail -n +2 "$x"; done; } > "$f"
  "$X/bench_closure_cpu" -n 1024,2048 -t int32,int64,fp64,bool -r 5 -d $d -s $s \
    --csv "$R/cpu_closure_types_$DEVICE.csv" || return 1
  "$X/bench_closure_cpu" -n 1024,2048 -t fp32,bool -r 5 -d $d -s $s --paths \
    --csv "$R/cpu_closure_paths_$DEVICE.csv" || return 1
  rm -rf "$tmp"
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  # each closure row against the all-core ceiling of its type
  "$PY" - "$R/cpu_ceiling_$DEVICE.csv" "$f" "$R/cpu_closure_types_$DEVICE.csv" <<'PY'
import csv, sys
ceil = {r["type"]: r for r in csv.DictReader(open(sys.argv[1])) if int(r["threads"]) > 1}
print(f"{'n':>6} {'type':>6} {'tasks/s':>10} {'of ceiling':>10} {'tasks/cpu-s':>12} {'of ceiling':>10}")
for path in sys.argv[2:]:
    for r in csv.DictReader(open(path)):
        c = ceil.get(r["type"])
        if r["impl"] != "gsp" or not c:
            continue
        w, p = float(r["tasks_per_s"]), float(r["tasks_per_cpu_s"])
        print(f"{r['n']:>6} {r['type']:>6} {w:>10.3g} {w / float(c['tasks_per_s']):>10.2f} "
              f"{p:>12.3g} {p / float(c['tasks_per_cpu_s']):>10.2f}")
PY
  # both programs must have found the same distances (count and sum of the finite ones)
  "$PY" - "$f" <<'PY'
import csv, sys
by = {}
for r in csv.DictReader(open(sys.argv[1])):
    by.setdefault(int(r["n"]), {})[r["impl"]] = r
ok = True
print(f"{'n':>6} {'gsp_s':>9} {'scipy_s':>9} {'speedup':>8}  same result")
for n in sorted(by):
    g, s = by[n].get("gsp"), by[n].get("scipy")
    if not g or not s:
        continue
    same = g["finite"] == s["finite"] and float(g["sum_finite"]) == float(s["sum_finite"])
    ok &= same
    print(f"{n:>6} {float(g['median_s']):>9.3f} {float(s['median_s']):>9.3f} "
          f"{float(s['median_s']) / float(g['median_s']):>7.1f}x  {'yes' if same else 'NO'}")
sys.exit(0 if ok else 1)
PY
}

run_user() {
  # GPU rows (where there is one) and the CPU backend's rows at n / 8, the
  # kernel alone beside each (bench_closure_gpu --user), joined into one CSV
  local t be=cpu k="$R/user_call_kernel_$DEVICE.csv"
  t=$(mktemp -d)
  nvidia-smi -L > /dev/null 2>&1 && be=cuda
  if [ $be = cuda ]; then
    timeout 300 "$X/bench_user_call" --backend cuda --reps 3 --npy-dir "$t" --csv "$t/gpu.csv" \
      > "$OUT/user_call.log" 2>&1 || return 1
    timeout 300 "$X/bench_closure_gpu" --user --csv "$k" > "$OUT/user_call_kernel.log" 2>&1 || return 1
    sed -n '/^device  /,$p' "$OUT/user_call_kernel.log"
  fi
  timeout 300 "$X/bench_user_call" --backend cpu --reps 3 --rows 0,1,2,3,4,5,6,7,8,9,10,11 --csv "$t/cpu.csv" \
    >> "$OUT/user_call.log" 2>&1 || return 1
  cat "$OUT/user_call.log"
  [ -f "$k" ] || k=/dev/null
  "$PY" bench/user_call_table.py "$R/user_call_$DEVICE.csv" "$k" $( [ $be = cuda ] && echo "$t/gpu.csv") "$t/cpu.csv"
  rm -rf "$t"
}

run_python() {
  "$PY" -c 'import gspgraph' || { echo "gsp is not importable by $PY (pip install . first)"; return 1; }
  local backend=cpu
  nvidia-smi -L > /dev/null 2>&1 && backend=cuda
  "$PY" bench/bench_python.py --backend "$backend" --out "$R/python_${backend}_$DEVICE.csv" 2>&1 \
    | tee "$OUT/python.log"
}

run_python-vs-c() {
  # `gsp apsp` with its sample path against --no-sample and the C user's call
  bench/bench_cli_sample.sh "$B/gsp" "${CLI_SAMPLE_N:-8192}" 3 "$X/bench_python_peer" cpu 2>&1 \
    | tee "$R/cli_sample_$DEVICE.txt" "$OUT/cli_sample.log" || return 1
  if nvidia-smi -L > /dev/null 2>&1; then
    bench/bench_cli_sample.sh "$B/gsp" 16384 3 "$X/bench_python_peer" cuda 2>&1 \
      | tee -a "$R/cli_sample_$DEVICE.txt" "$OUT/cli_sample.log" || return 1
  fi
  "$PY" -c 'import gspgraph' || { echo "gsp is not importable by $PY (pip install . first)"; return 1; }
  "$PY" bench/bench_python_vs_c.py --peer "$X/bench_python_peer" --cli "$B/gsp" --backend cpu \
    ${PVC_CPU_ARGS:-} --out "$R/python_vs_c_cpu_$DEVICE.csv" 2>&1 | tee "$OUT/python_vs_c.log" || return 1
  nvidia-smi -L > /dev/null 2>&1 || return 0
  "$PY" bench/bench_python_vs_c.py --peer "$X/bench_python_peer" --cli "$B/gsp" --backend cuda \
    --dense 4096,8192,16384 --sparse 16384 --tc 16384,30000 --first-n 4096 ${PVC_GPU_ARGS:-} \
    --out "$R/python_vs_c_cuda_$DEVICE.csv" 2>&1 | tee -a "$OUT/python_vs_c.log"
}

run_user-device() {
  run_user || return 1
  local g rc=0
  g=$(mktemp -d)
  "$B/gsp" generate random --n 65536 --m 262144 --wmin 1 --wmax 4096 --type int32 -o "$g/r64k.gr" > /dev/null &&
    "$B/gsp" generate random --n 30000 --m 240000 --wmin 1 --wmax 4096 --type int32 -o "$g/r30k.gr" > /dev/null ||
    { rm -rf "$g"; return 1; }
  for _ in $(seq "${CLI_REPS:-2}"); do
    /usr/bin/time -f "wall %e s, max rss %M KiB" timeout 120 "$B/gsp" apsp "$g/r64k.gr" --no-sample -v -t int32 2>&1 || rc=1
  done
  /usr/bin/time -f "wall %e s, max rss %M KiB" timeout 120 "$B/gsp" apsp "$g/r30k.gr" --no-sample -v -t int32 \
    -o "$g/r.npy" 2>&1 || rc=1
  ls -l "$g/r.npy"
  # the rate the result file is written at bounds the second row
  dd if=/dev/zero of="$g/dd.bin" bs=64M count=32 oflag=direct 2>&1 | tail -1
  rm -rf "$g"
  return $rc
}

run_headline() {
  {
    echo "commit ${COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo ?)}, $(date -u +%F)"
    for _ in 1 2 3; do
      timeout 120 "$X/bench_closure_gpu" --one fp32 16384 | grep -E '^  fp32 '
    done
    # shellcheck disable=SC2086
    timeout 200 "$X/bench_sssp" $SSSP --backend cuda --graphs rmat --algos auto --reps 9 | grep -E '^\| (graph|rmat)'
    timeout 300 "$X/bench_sssp" --backend cuda --skip-sssp --skip-apsp --skip-bf --skip-fw --reps 3 \
      --apsp-cpu-sources 0 | grep -E '^\| '
  } 2>&1 | tee "$OUT/headline.log"
  cp "$OUT/headline.log" "$R/headline_$DEVICE.txt"
}

run_gpu-tests() {
  local rc=0 tier t0 log
  printf '%-10s %-28s %9s  %s\n' tier suite seconds result > "$OUT/gpu_tests.txt"
  for tier in ${GPU_TIERS:-gpu-quick gpu-long}; do
    t0=$(date +%s)
    log="$OUT/ctest_$tier.log"
    (cd "$B" && ctest -L "$tier" -j"${TEST_JOBS:-4}" --no-tests=error --output-on-failure) > "$log" 2>&1 || rc=1
    # "  3/10 Test  #12: test_cuda_sssp .........   Passed   41.20 sec"
    sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \([^ ]*\) [ .*]*\([A-Za-z][A-Za-z ]*[a-z]\) *\([0-9.]*\) sec$/\1 \3 \2/p' \
      "$log" | sort | while read -r suite secs result; do
      printf '%-10s %-28s %9s  %s\n' "$tier" "$suite" "$secs" "$result"
    done >> "$OUT/gpu_tests.txt"
    printf '%-10s %-28s %9s  %s\n' "$tier" "(wall, -j${TEST_JOBS:-4})" "$(( $(date +%s) - t0 ))" \
      "$(grep -E 'tests passed|No tests were found' "$log" | tail -1)" >> "$OUT/gpu_tests.txt"
  done
  cat "$OUT/gpu_tests.txt"
  return $rc
}

for s in "${suites[@]}"; do
  stamp "suite $s"
  s0=$(date +%s)
  "run_$s"
  rc=$?
  if [ $rc -eq 0 ]; then note "$s: ok ($(( $(date +%s) - s0 )) s)"
  else fail "$s: FAILED rc=$rc ($(( $(date +%s) - s0 )) s; logs in $OUT)"; fi
done
stamp done
echo "==== summary ($DEVICE; CSV in $R, logs in $OUT)"
printf '%s\n' "${summary[@]}"
exit $status
