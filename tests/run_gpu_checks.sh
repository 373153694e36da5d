#!/usr/bin/env bash
# One device call: compute-sanitizer memcheck, racecheck, synccheck and
# initcheck over tests/test_cuda_sanitize.c, the small GPU suite that covers
# every kernel family (see its header), each tool under its own time limit,
# then a table: tool, tests passed, errors/hazards, seconds.
#
#   source .deps/unpack.sh unpack; bash tests/run_gpu_checks.sh [options]
#
#   --serial         run the four tools one after another (default: all four
#                    at once, as separate processes on the one GPU; their
#                    seconds are then wall times under that sharing)
#   --full-memcheck  afterwards, memcheck over the small tests of the full
#                    GPU suites (test_cuda_closure, _sssp, _bellman_ford,
#                    _msssp, _apsp, _ops, _ooc) as far as BUDGET allows
#   --tools "a b"    a subset of the tools
# Environment: OUT (logs; default ./out), BUILD_DIR (default build-san),
# BUDGET (seconds for the whole call, default 350), TOOL_LIMIT (seconds per
# tool; default what is left of BUDGET after the build and the native run),
# SKIP_BUILD=1 (reuse an earlier build in BUILD_DIR).
# Exit status: 0 when every finished tool reported no error and every test
# passed, 1 otherwise, 2 when a tool ran out of time.
set -u -o pipefail
OUT=${OUT:-$PWD/out}
B=${BUILD_DIR:-build-san}
BUDGET=${BUDGET:-350}
mkdir -p "$OUT"
t0=$(date +%s)
now() { echo $(( $(date +%s) - t0 )); }
stamp() { echo "[$(now)s] $*"; }

serial=0 full=0 tools="memcheck racecheck synccheck initcheck"
while [ $# -gt 0 ]; do
  case "$1" in
  --serial) serial=1 ;;
  --full-memcheck) full=1 ;;
  --tools) tools="$2"; shift ;;
  *) echo "unknown option $1"; exit 2 ;;
  esac
  shift
done

targets=test_cuda_sanitize
[ $full = 1 ] && targets="$targets test_cuda_closure test_cuda_sssp test_cuda_bellman_ford test_cuda_msssp test_cuda_apsp test_cuda_ops test_cuda_ooc"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  stamp "configure ($B)"
  # -lineinfo: sanitizer reports name the source line of a kernel access
  cmake -S . -B "$B" -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_FLAGS=-lineinfo -DGSP_BUILD_EXAMPLES=OFF -DGSP_BUILD_BENCH=OFF > "$OUT/cmake.log" 2>&1 \
    || { tail -20 "$OUT/cmake.log"; exit 1; }
  # shellcheck disable=SC2086
  cmake --build "$B" -j"$(nproc)" --target $targets > "$OUT/build.log" 2>&1 \
    || { grep -E "error" "$OUT/build.log" | head -20; exit 1; }
  stamp built
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
compute-sanitizer --version | tail -1 | tee -a "$OUT/gpu.txt"
SUITE="$B/tests/test_cuda_sanitize"

# ---- result of one log: "passed/total errors status" ----
# Criterion prints [PASS]/[FAIL] per test (--verbose) and a Synthesis line
# at the end; compute-sanitizer an ERROR SUMMARY (racecheck: RACECHECK
# SUMMARY, hazards) per run. A run cut short has neither summary: the
# reports printed so far are counted instead and marked "+".
summarize() { # log rc
  local log=$1 rc=$2 pass fail total errs status
  pass=$(grep -c '^\[PASS\]' "$log")
  fail=$(grep -cE '^\[(FAIL|ERR )\]|CRASH' "$log")
  total=$(grep -o 'Tested: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  [ -z "$total" ] && total="$((pass + fail))+"
  if grep -q 'RACECHECK SUMMARY' "$log"; then
    errs=$(grep -o 'RACECHECK SUMMARY: [0-9]* hazard' "$log" | grep -o '[0-9]*' | awk '{ s += $1 } END { print s + 0 }')
  elif grep -q 'ERROR SUMMARY' "$log"; then
    errs=$(grep -o 'ERROR SUMMARY: [0-9]* error' "$log" | grep -o '[0-9]*' | awk '{ s += $1 } END { print s + 0 }')
  else
    errs="$(grep -cE '^========= +(Invalid|Error|Warning|Uninitialized|Program hit|Race|Barrier|Divergent|Out of range|Misaligned)' "$log")+"
  fi
  case $rc in
  0) status=ok ;; 124|137) status=TIMEOUT ;; 99) status=errors ;; *) status="rc=$rc" ;;
  esac
  echo "$pass/$total $errs $status"
}

rows=()
row() { rows+=("$(printf '%-12s %-26s %-9s %-11s %6s  %s' "$@")"); }

# ---- native run: every case passes, and how long each takes ----
stamp "native run"
s=$(date +%s)
timeout -k 5 120 "$SUITE" --jobs 1 --verbose > "$OUT/native.log" 2>&1
rc=$?
read -r tp te st <<< "$(summarize "$OUT/native.log" $rc)"
row none test_cuda_sanitize "$tp" - "$(( $(date +%s) - s ))" "$st"
grep -E '^\[(PASS|FAIL)\]' "$OUT/native.log"
grep -B2 -A6 'Assertion Failed' "$OUT/native.log" | head -30

# ---- the four tools ----
left=$(( BUDGET - $(now) - 15 ))
limit=${TOOL_LIMIT:-$left}
[ "$serial" = 1 ] && [ -z "${TOOL_LIMIT:-}" ] && limit=$(( left / $(echo $tools | wc -w) ))
[ "$limit" -lt 30 ] && limit=30
CS="compute-sanitizer --target-processes all --error-exitcode 99 --print-limit 200"
run_tool() { # tool
  local s e rc
  s=$(date +%s)
  # timeout signals the whole process group: the sanitizer and Criterion's
  # forked test processes
  timeout -k 10 "$limit" $CS --tool "$1" "$SUITE" --jobs 1 --verbose > "$OUT/cs_$1.log" 2>&1
  rc=$?
  e=$(date +%s)
  echo "$rc $((e - s))" > "$OUT/cs_$1.rc"
}
stamp "sanitizers ($tools), $limit s each, $([ $serial = 1 ] && echo serial || echo concurrent)"
for tool in $tools; do
  if [ "$serial" = 1 ]; then run_tool "$tool"; else run_tool "$tool" & fi
done
wait
for tool in $tools; do
  read -r rc secs < "$OUT/cs_$tool.rc"
  read -r tp te st <<< "$(summarize "$OUT/cs_$tool.log" "$rc")"
  row "$tool" test_cuda_sanitize "$tp" "$te" "$secs" "$st"
done
stamp "sanitizers done"

# ---- optional: memcheck over the small tests of the full suites ----
if [ "$full" = 1 ]; then
  for spec in \
    "test_cuda_closure cuda_closure/@(small_*|paths|negative_cycle|memory_cap|device_resident_result|int32_saturation)" \
    "test_cuda_sssp cuda_sssp/@(cutoff_and_delta|nearest_source|auto_backend_and_decline|msssp_rows_against_reference|nearfar_nearest_source_many)" \
    "test_cuda_bellman_ford cuda_bellman_ford/@(cycle_found_only_at_round_n|auto_backend|potentials_and_saturation)" \
    "test_cuda_msssp cuda_msssp/@(repeated_and_single_sources|forced_level_repair)" \
    "test_cuda_apsp cuda_apsp/@(negative_cycle|auto_selection_on_gpu)" \
    "test_cuda_ops cuda_@(residency|errors|algorithms)/*" \
    "test_cuda_ooc cuda_ooc/@(negative_cycle|cap_too_small_and_large|resident_input)"; do
    t=${spec%% *} f=${spec#* }
    l=$(( BUDGET - $(now) - 10 ))
    if [ $l -lt 30 ]; then row memcheck "$t" - - 0 "skipped (budget)"; continue; fi
    s=$(date +%s)
    timeout -k 10 "$l" $CS --tool memcheck "$B/tests/$t" --jobs 1 --verbose --filter "$f" > "$OUT/cs_full_$t.log" 2>&1
    rc=$?
    read -r tp te st <<< "$(summarize "$OUT/cs_full_$t.log" $rc)"
    row memcheck "$t" "$tp" "$te" "$(( $(date +%s) - s ))" "$st"
  done
fi

stamp done
{
  echo "==== compute-sanitizer summary ($(head -1 "$OUT/gpu.txt"); $([ $serial = 1 ] && echo serial || echo "tools concurrent"))"
  printf '%-12s %-26s %-9s %-11s %6s  %s\n' tool suite passed errors seconds status
  printf '%s\n' "${rows[@]}"
} | tee "$OUT/summary.txt"
for tool in $tools; do # the first reports of a tool that found something
  grep -qE '^========= +(Invalid|Error|Warning|Uninitialized|Program hit|Race|Barrier)' "$OUT/cs_$tool.log" 2>/dev/null \
    && { echo "---- $tool, first reports:"; grep -E -A4 '^========= +(Invalid|Error|Warning|Uninitialized|Program hit|Race|Barrier)' "$OUT/cs_$tool.log" | head -25; }
done
grep -q TIMEOUT "$OUT/summary.txt" && exit 2
# every row: all tests passed, no error reported, status ok (or skipped)
awk 'NR > 2 { split($3, p, "/"); if ($3 != "-" && p[1] != p[2]) bad = 1
              if ($4 != "0" && $4 != "-") bad = 1; if ($6 != "ok" && $6 != "skipped") bad = 1 }
     END { exit bad }' "$OUT/summary.txt"
