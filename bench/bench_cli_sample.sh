#!/usr/bin/env bash
# What the sample path costs `gsp apsp`: the same graph with the default
# output (the connected pairs and the pair farthest apart, with its path
# from one single-source search more) and with --no-sample, best of REPS
# wall-clock runs of each and the time the command reports for the
# computation ("closure by ...: X s"); with PEER (bench_python_peer) also
# the C user's call on the same file (gsp_apsp, then the dense array),
# which the --no-sample computation should match. Target: default /
# --no-sample <= 1.10 (docs/performance.md).
#   bench/bench_cli_sample.sh GSP [N] [REPS] [PEER] [BACKEND]
# The graph: gsp generate random, N vertices, 4 arcs a vertex, weights
# 1..4096 (read as int64, as every caller here reads it).
set -euo pipefail
gsp=${1:?usage: bench_cli_sample.sh GSP [N] [REPS] [PEER] [BACKEND]}
n=${2:-8192}
reps=${3:-3}
peer=${4:-}
backend=${5:-auto}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g="$tmp/g.gr"
"$gsp" generate random --n "$n" --m $((4 * n)) --wmin 1 --wmax 4096 --seed 1 -o "$g" > /dev/null

# best wall and reported compute seconds of REPS runs of `gsp apsp G ARGS`
best() {
  local bw="" bc="" t0 t1 out c w
  "$gsp" apsp --backend "$backend" "$g" "$@" > /dev/null 2>&1 # warm-up: page cache, device
  for _ in $(seq "$reps"); do
    t0=$(date +%s.%N)
    out=$("$gsp" apsp --backend "$backend" "$g" "$@" 2> /dev/null)
    t1=$(date +%s.%N)
    c=$(echo "$out" | sed -n 's/.*closure by [a-z]* ([^)]*): \([0-9.]*\) s.*/\1/p')
    w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
    bw=$(awk -v x="$w" -v y="${bw:-$w}" 'BEGIN { print (x < y ? x : y) }')
    bc=$(awk -v x="$c" -v y="${bc:-$c}" 'BEGIN { print (x < y ? x : y) }')
  done
  echo "$bw $bc"
}

threads=$("$gsp" apsp -v --no-sample --backend "$backend" "$g" 2>&1 | sed -n 's/.*; \([0-9]*\) CPU thread.*/\1/p')
algo=$("$gsp" apsp --no-sample --backend "$backend" "$g" | sed -n 's/.*closure by \([a-z]*\) (\([^)]*\)).*/\1, \2/p')
read -r nw nc <<< "$(best --no-sample)"
read -r dw dc <<< "$(best)"
echo "gsp apsp, random n = $n, 4 arcs a vertex, int64, $algo, ${threads:-?} CPU threads; best of $reps"
printf "%-22s %9s %11s\n" "output" "wall s" "compute s"
printf "%-22s %9.3f %11.3f\n" "--no-sample" "$nw" "$nc"
printf "%-22s %9.3f %11.3f\n" "default (sample path)" "$dw" "$dc"
awk -v d="$dw" -v s="$nw" 'BEGIN { printf "default / --no-sample: %.3f (wall; target <= 1.10)\n", d / s }'
if [ -n "$peer" ]; then
  # the C user's call: gsp_apsp into a matrix, exported to one dense array (median of 3)
  p=$("$peer" apsp "$g" "$backend" | sed -n 's/^c_s \([0-9.]*\)/\1/p')
  [ -n "$p" ] && awk -v c="$nc" -v p="$p" \
    'BEGIN { printf "C user call (gsp_apsp + export): %.3f s; CLI --no-sample compute / C call: %.3f (target <= 1.10)\n", p, c / p }'
fi
