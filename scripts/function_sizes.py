#!/usr/bin/env python3
"""Functions longer than a limit, from universal-ctags' start and end lines.

usage: function_sizes.py [--limit N] [--all] [PATH ...]

PATH: files or folders (default: src tools python include bench tests of
the repository). Prints one line per function over the limit (default 80
lines, the whole definition from its first line to its closing brace),
longest first, then the count; --all counts every function. Exits 0: it
measures, it does not judge.
"""
import argparse
import json
import os
import subprocess
import sys

SOURCE = (".c", ".h", ".cu", ".cuh", ".cpp", ".hpp")


def functions(paths):
    cmd = ["ctags", "--output-format=json", "--fields=+ne", "--kinds-C=f", "--kinds-C++=f",
           "--langmap=C++:+.cu.cuh", "-R", "-f", "-"] + paths
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        tag = json.loads(line)
        if tag.get("_type") != "tag" or "end" not in tag or not tag["path"].endswith(SOURCE):
            continue
        yield tag["path"], tag["name"], tag["line"], tag["end"] - tag["line"] + 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=80)
    ap.add_argument("--all", action="store_true", help="list every function")
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    paths = a.paths or [p for p in (os.path.join(root, d) for d in
                                    ("src", "tools", "python", "include", "bench", "tests")) if os.path.isdir(p)]
    rows = sorted(functions(paths), key=lambda r: -r[3])
    long = [r for r in rows if a.all or r[3] > a.limit]
    for path, name, line, size in long:
        print("%5d  %s:%d  %s" % (size, os.path.relpath(path), line, name))
    print("%d functions over %d lines (of %d)" % (len([r for r in rows if r[3] > a.limit]), a.limit, len(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
