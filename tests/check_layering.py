#!/usr/bin/env python3
"""The floors of src/, read from the #include lines (docs/design.md, "The map").

Each folder may include headers of the folders listed for it and nothing
else: core and semiring at the bottom, io and ops above them, the CUDA
kernels beside ops (never including it), the gateway headers
(src/cuda/include) the one place where C code and the CUDA plugin meet.
Fails on an include across a forbidden direction, on a quoted include that
names no header of the tree, on a cycle among headers, and on a circle
among folders: a folder whose files include a header of another folder
that, directly or through others, includes one of its own (ops/apsp ->
ops/sssp -> ops/apsp), which makes two features one.

The command line (tools/**) is a user of the library like any other: its
files include the public headers (include/) and their own, nothing of src/.

The CUDA plugin (src/cuda/**) speaks arrays to the core, not its objects:
its files include the gateway headers and src/semiring, never a header of
src/core, and a file there that names the core's matrix or vector struct
fails. The gateway headers include src/semiring and each other only, so
no folder circle runs through them.

usage: check_layering.py SOURCE_DIR
"""
import os
import re
import sys

FLOOR = ["core", "semiring", "cuda/include"]
PLUGIN_FLOOR = ["semiring", "cuda/include"]
OPS = ["ops", "ops/graphblas", "ops/closure", "ops/sssp", "ops/apsp", "ops/bf", "ops/star"]
CUDA = ["cuda", "cuda/graphblas", "cuda/closure", "cuda/sssp", "cuda/bf"]
ALLOWED = {
    "semiring": ["semiring"],
    "core": FLOOR,
    "cuda/include": PLUGIN_FLOOR,
    "io": FLOOR + ["io"],
    "mpi": FLOOR + OPS + ["mpi"],
}
for d in OPS:
    ALLOWED[d] = FLOOR + OPS
for d in CUDA:
    ALLOWED[d] = PLUGIN_FLOOR + CUDA
CORE_OBJECTS = re.compile(r'\bgsp_(?:matrix|vector)_s\b')
# written by CMake into the build tree (src/cuda/closure/gsp_cuda_mgpu.cu)
GENERATED = {"gsp_nccl_config.h"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCE = (".c", ".h", ".cu", ".cuh", ".hpp", ".cpp")


def folder_circles(edges):
    """Every elementary circle of the folder graph (an arc d -> e when a
    file of d includes a header of e), each named once, from its least folder,
    with one include line of each arc as the witness."""
    arcs = {}
    for (d, name), heads in sorted(edges.items()):
        for home, base in sorted(heads):
            if home != d:
                arcs.setdefault(d, {}).setdefault(home, "%s/%s includes %s" % (d, name, base))
    found = []

    def walk(start, node, path):
        for nxt in sorted(arcs.get(node, {})):
            if nxt == start:
                hops = path + [start]
                found.append((" -> ".join(hops), "; ".join(arcs[a][b] for a, b in zip(hops, hops[1:]))))
            elif nxt > start and nxt not in path:
                walk(start, nxt, path + [nxt])

    for start in sorted(arcs):
        walk(start, start, [start])
    return found


def tools_problems(root, public):
    """Quoted includes of tools/** that are neither public headers nor
    headers of the tool's own folder."""
    errors = []
    for dirpath, _, names in os.walk(os.path.join(root, "tools")):
        own = {n for n in names if n.endswith((".h", ".hpp"))}
        for name in sorted(n for n in names if n.endswith(SOURCE)):
            full = os.path.join(dirpath, name)
            with open(full, encoding="utf-8") as f:
                text = f.read()
            for inc in INCLUDE.findall(text):
                if inc not in public and inc not in own:
                    errors.append("%s includes \"%s\": the command line uses the public headers (include/) only"
                                  % (os.path.relpath(full, root), inc))
    return errors


def main(root):
    src = os.path.join(root, "src")
    where = {}  # header name -> folder(s) holding it
    files = []
    for d in sorted(ALLOWED):
        path = os.path.join(src, d)
        for name in sorted(os.listdir(path)):
            full = os.path.join(path, name)
            if os.path.isfile(full) and name.endswith(SOURCE):
                files.append((d, name, full))
                where.setdefault(name, []).append(d)
    on_disk = set()
    for dirpath, _, names in os.walk(src):
        for name in names:
            if name.endswith(SOURCE):
                on_disk.add(os.path.relpath(os.path.join(dirpath, name), src))
    listed = {os.path.join(d, n) for d, n, _ in files}
    errors = ["src/%s: in a folder the layering does not know" % p for p in sorted(on_disk - listed)]
    public = set(os.listdir(os.path.join(root, "include")))
    edges = {}
    for d, name, full in files:
        with open(full, encoding="utf-8") as f:
            text = f.read()
        if d == "cuda" or d.startswith("cuda/"):
            if CORE_OBJECTS.search(text):
                errors.append("src/%s/%s names the core's gsp_matrix_s or gsp_vector_s: the plugin takes arrays"
                              % (d, name))
        for inc in INCLUDE.findall(text):
            base = os.path.basename(inc)
            if inc in public or base in GENERATED:
                continue
            homes = where.get(base)
            if not homes:
                errors.append("src/%s/%s includes \"%s\": no such header in src/" % (d, name, inc))
                continue
            if len(homes) > 1:
                errors.append("\"%s\" is in several folders: %s" % (base, ", ".join(homes)))
            home = homes[0]
            if home not in ALLOWED[d]:
                errors.append("src/%s/%s includes %s/%s: %s may not include %s" % (d, name, home, base, d, home))
            edges.setdefault((d, name), set()).add((home, base))
    # cycles among headers (a .c is never included, so cycles run through headers)
    state = {}

    def visit(node, stack):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cyc = stack[stack.index(nxt):] + [nxt]
                errors.append("include cycle: " + " -> ".join("%s/%s" % c for c in cyc))
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [])
    errors += tools_problems(root, public)
    circles = folder_circles(edges)
    errors += ["include circle among folders: %s (%s)" % c for c in circles]
    for e in errors:
        print("layering: " + e)
    print("layering: %d files, %d include lines checked, %d folder circles, %d problems"
          % (len(files), sum(len(v) for v in edges.values()), len(circles), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")))
