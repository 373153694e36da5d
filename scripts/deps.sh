#!/usr/bin/env bash
# Install the Debian packages gsp needs to build and test, if missing.
# Sourced by build.sh and test.sh.
gsp_install_deps() {
  local pkgs="cmake gcc g++ make pkg-config zlib1g-dev libcriterion-dev libgraphblas-dev libsuitesparse-dev libmetis-dev python3 python3-venv clang clang-format"
  # libgsp_mpi and its tests (mpirun)
  pkgs="$pkgs libopenmpi-dev openmpi-bin"
  local missing=""
  for p in $pkgs; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  echo "gsp: installing missing Debian packages:$missing" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
}
