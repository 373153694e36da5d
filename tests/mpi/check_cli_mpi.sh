#!/usr/bin/env bash
# `mpirun -n 3 gsp apsp` against plain `gsp apsp`: the same output files
# byte for byte, the same summary, and the same exit codes for failures.
# usage: check_cli_mpi.sh GSP "MPIRUN -n 3 [flags]" WORKDIR
set -euo pipefail
gsp=$1 mpirun=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "check_cli_mpi: $*" >&2; exit 1; }
# run CMD...: exit code in $rc, stdout in out.txt, stderr in err.txt
run() { set +e; "$@" >out.txt 2>err.txt; rc=$?; set -e; }
same() { # name, gsp apsp arguments...: plain vs MPI
  local name=$1; shift
  run "$gsp" apsp "$@" -o "plain_$name"
  [ $rc -eq 0 ] || { cat err.txt; fail "$name: plain run failed ($rc)"; }
  grep '^connected pairs' out.txt >plain.sum || true
  run $mpirun "$gsp" apsp "$@" -o "mpi_$name"
  [ $rc -eq 0 ] || { cat out.txt err.txt; fail "$name: MPI run failed ($rc)"; }
  grep -q 'mpi: 3 ranks' out.txt || fail "$name: the MPI run did not say it ran on 3 ranks"
  grep '^connected pairs' out.txt >mpi.sum || true
  if [[ $name == *.mtx ]]; then # the comment names the algorithm that ran
    cmp <(grep -v '^%' "plain_$name") <(grep -v '^%' "mpi_$name") || fail "$name: the MPI output differs"
  else
    cmp "plain_$name" "mpi_$name" || fail "$name: the MPI output differs"
  fi
  cmp plain.sum mpi.sum || fail "$name: the summaries differ"
}
expect() { # exit code, name, command...
  local want=$1 name=$2; shift 2
  run "$@"
  [ $rc -eq "$want" ] || { cat err.txt; fail "$name: exit code $rc, expected $want"; }
}

# integer weights (exact in any order; the plain run records successors)
"$gsp" generate random -q --n 300 --m 3000 --wmin 1 --wmax 100 --seed 7 -o int.mtx
same int.mtx int.mtx
same int_plus.gspd int.mtx --non-reflexive
same int_or.mtx int.mtx -s or-and
# fractional weights: bit-identical to the blocked closure (--no-sample; AUTO
# may pick the relaxation on one rank, whose sums associate differently)
awk 'NR == 1 {sub("integer", "real"); print; next} /^%/ {print; next}
     !size {size = 1; print; next} {printf "%s %s %.17g\n", $1, $2, $3 / 7}' \
  int.mtx >frac.mtx
same frac.gspd frac.mtx --no-sample --algo fw
same frac_maxmin.mtx frac.mtx --no-sample -s max-min
# failures: the same exit code as the plain run, on every rank
"$gsp" generate random -q --n 200 --m 2000 --wmin -40 --wmax 100 --seed 3 -o neg.mtx
expect 5 "plain negative cycle" "$gsp" apsp -q neg.mtx
expect 5 "MPI negative cycle" $mpirun "$gsp" apsp -q neg.mtx
expect 3 "MPI missing file" $mpirun "$gsp" apsp -q no-such-file.mtx
expect 8 "MPI --path" $mpirun "$gsp" apsp -q int.mtx --path 1:2
echo "check_cli_mpi: passed"
