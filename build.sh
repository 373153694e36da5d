#!/usr/bin/env bash
# Build gsp (installing missing Debian packages) and run the main job:
# all-pairs shortest paths of the bundled Helsinki road network, with timing
# and a sample shortest path, drawn on the road map in build/helsinki_path.svg.
# Extra arguments go to `gsp apsp`.
set -euo pipefail
cd "$(dirname "$0")"
. scripts/deps.sh
gsp_install_deps
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
echo "== gsp apsp data/helsinki_drive.gr.gz --svg build/helsinki_path.svg $*"
exec build/gsp apsp data/helsinki_drive.gr.gz --svg build/helsinki_path.svg "$@"
