#!/usr/bin/env bash
# Every GPU suite on the device in two parallel groups (8 OpenMP threads
# each), then the CPU backend's single-source rows; logs to $OUT.
# Usage (repository root, device machine; carry .deps): bash bench/run_device_suites.sh
source .deps/unpack.sh unpack >/dev/null 2>&1
B=build-c3; L=/tmp/c3; mkdir -p $L $OUT
A="test_cuda_sssp:330 test_cuda_apsp:150 test_cuda_sanitize:100"
G="test_cuda_ops:260 test_cuda_bellman_ford:160 test_cuda_closure:200 test_cuda_faults:130"
T=$(echo "$A $G" | tr ' ' '\n' | sed 's/:.*//' | tr '\n' ' ')
cmake -S . -B $B -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release -DGSP_BUILD_EXAMPLES=OFF >/dev/null && cmake --build $B -j16 --target $T bench_sssp > $L/build.log 2>&1 || { grep error $L/build.log | head; exit 1; }
echo "built $(date +%T)"; nvidia-smi --query-gpu=name --format=csv,noheader
grp() { for s in $1; do t=${s%%:*}; OMP_NUM_THREADS=8 timeout ${s##*:} $B/tests/$t --jobs 4 --verbose > $L/$t.log 2>&1; echo "$t: rc=$? $(grep -o 'Tested: .*' $L/$t.log | tail -1) [$(date +%T)]"; grep -B1 -A6 "Assertion Failed\|CRASH\|Timed out" $L/$t.log | head -12; done; }
grp "$A" > $L/ga.txt & a=$!; grp "$G" > $L/gb.txt & b=$!; wait $a $b; cat $L/ga.txt $L/gb.txt
timeout 100 $B/bench/bench_sssp --skip-apsp --skip-bf --skip-apsp-big --max-seconds 3 --backend cpu --algos delta,auto --reps 3 --csv $L/cpu.csv > $L/bench_cpu.log 2>&1; grep -E '^\| (rmat|grid)' $L/bench_cpu.log | grep -v skipped
tar -C $L -czf $OUT/c3_logs.tar.gz .
