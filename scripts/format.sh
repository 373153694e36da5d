#!/usr/bin/env bash
# The one style of the C, CUDA and C++ sources (.clang-format at the top).
#   scripts/format.sh          reformat every tracked source in place
#   scripts/format.sh --check  change nothing; fail naming each file that
#                              differs (the ctest format_check)
# Both modes take the same list: the tracked *.c *.h *.cu *.cuh *.cpp *.hpp.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "format: clang-format not found (scripts/deps.sh installs it)" >&2; exit 1; }
git rev-parse --git-dir >/dev/null 2>&1 || { echo "format: not a git checkout: the file list is git's" >&2; exit 1; }
list() { git ls-files -z '*.c' '*.h' '*.cu' '*.cuh' '*.cpp' '*.hpp'; }
if [ "${1:-}" = "--check" ]; then
  list | xargs -0 clang-format --dry-run --Werror
else
  list | xargs -0 clang-format -i
fi
