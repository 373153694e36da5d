#!/usr/bin/env bash
# The Python environment of the tests: a virtual environment in build-venv/
# holding what tests/requirements.txt names (numpy, scipy, networkx, pytest).
# Sourced by test.sh; gsp_python_env exports GSP_PYTHON, the interpreter
# every Python check runs under, so no check depends on which python3 is
# first on PATH.
gsp_python_env() {
  local venv="${GSP_VENV:-$PWD/build-venv}"
  local req="$PWD/tests/requirements.txt"
  if [ ! -x "$venv/bin/python" ] || ! cmp -s "$req" "$venv/requirements.txt"; then
    echo "gsp: preparing the Python test environment in $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$req"
    cp "$req" "$venv/requirements.txt"
  fi
  export GSP_PYTHON="$venv/bin/python"
}
