"""Check the map outputs of `gsp path`, `gsp sssp` and `gsp apsp` on the
bundled Helsinki road graph with Python's own parsers:

- the GeoJSON parses with json, is a FeatureCollection of RFC 7946
  features, every position is [longitude, latitude] in range and inside
  the bounding box of the .co file (and is exactly the .co position of
  the vertex it names); the path's LineString has as many positions as
  `gsp path` prints vertices, and its properties hold the printed distance
  and vertex ids;
- the SVG is well-formed XML (xml.etree.ElementTree) whose path polyline
  has as many points as the path has vertices;
- the sssp tree has one two-position LineString per reached vertex but the
  source, each carrying the distance `gsp sssp -o` writes for its head;
- a graph without coordinates is refused with exit 3 and a message naming
  the coordinates file looked for.

usage: check_geo.py GSP WORKDIR
"""
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

GSP, WORK = sys.argv[1], sys.argv[2]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRAPH = os.path.join(ROOT, "data", "helsinki_drive.gr.gz")
COORDS = os.path.join(ROOT, "data", "helsinki_drive.co.gz")
SVG_NS = "{http://www.w3.org/2000/svg}"
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args, expect=0):
    r = subprocess.run([GSP, *args], capture_output=True, text=True,
                       env=dict(os.environ, OMP_NUM_THREADS="2"))
    check(r.returncode == expect,
          f"gsp {' '.join(args)}: exit {r.returncode}, expected {expect}\n"
          f"{r.stderr}")
    return r


def read_coords():
    pos = {}
    with gzip.open(COORDS, "rt") as f:
        for line in f:
            t = line.split()
            if t and t[0] == "v":
                pos[int(t[1])] = (int(t[2]) / 1e6, int(t[3]) / 1e6)
    return pos


POS = read_coords()
LON = [p[0] for p in POS.values()]
LAT = [p[1] for p in POS.values()]
BOX = (min(LON), max(LON), min(LAT), max(LAT))


def check_position(p, vid, what):
    ok = (isinstance(p, list) and len(p) == 2 and
          all(isinstance(x, (int, float)) for x in p))
    check(ok, f"{what}: position {p!r} is not [lon, lat]")
    if not ok:
        return
    lon, lat = p
    check(-180 <= lon <= 180 and -90 <= lat <= 90,
          f"{what}: {p} out of range")
    check(BOX[0] <= lon <= BOX[1] and BOX[2] <= lat <= BOX[3],
          f"{what}: {p} outside the .co bounding box {BOX}")
    if vid is not None:
        want = POS[vid]
        check(abs(lon - want[0]) < 5e-7 and abs(lat - want[1]) < 5e-7,
              f"{what}: vertex {vid} at {p}, the .co says {want}")


def load_geojson(path):
    with open(path) as f:
        doc = json.load(f)
    check(doc.get("type") == "FeatureCollection",
          f"{path}: not a FeatureCollection")
    feats = doc.get("features")
    check(isinstance(feats, list) and feats, f"{path}: no features")
    for ft in feats:
        check(ft.get("type") == "Feature" and "geometry" in ft and
              isinstance(ft.get("properties"), dict),
              f"{path}: malformed feature {str(ft)[:80]}")
    return feats


def polyline_points(path, cls="path"):
    root = ET.parse(path).getroot()
    check(root.tag == SVG_NS + "svg", f"{path}: root is {root.tag}")
    lines = [e for e in root.iter(SVG_NS + "polyline")
             if e.get("class") == cls]
    check(len(lines) == 1, f"{path}: {len(lines)} polylines of class {cls}")
    if not lines:
        return None, root
    pts = lines[0].get("points").split()
    for p in pts:
        x, y = (float(v) for v in p.split(","))
        check(0 <= x <= float(root.get("width")) and
              0 <= y <= float(root.get("height")),
              f"{path}: point {p} outside the picture")
    return len(pts), root


def parse_path_output(text):
    head = re.search(r"(\d+) -> (\d+)(?::|,) value (\S+?),? (\d+) vertices",
                     text)
    check(head is not None, f"no path line in:\n{text}")
    ids = [int(v) for v in re.findall(r"\d+", text.splitlines()[-1])]
    return head, ids


os.makedirs(WORK, exist_ok=True)
gj, svg = os.path.join(WORK, "path.geojson"), os.path.join(WORK, "path.svg")

# ---- gsp path
r = run("path", GRAPH, "712", "407", "--geojson", gj, "--svg", svg)
lines = [l for l in r.stdout.splitlines() if l.startswith("path ") or
         l.startswith("  ")]
head, ids = parse_path_output("\n".join(lines))
n, value = int(head.group(4)), int(head.group(3))
check(len(ids) == n, f"path prints {len(ids)} ids for {n} vertices")
feats = load_geojson(gj)
check(len(feats) == 1, f"path GeoJSON has {len(feats)} features")
g = feats[0]["geometry"]
props = feats[0]["properties"]
check(g["type"] == "LineString", f"path geometry is {g['type']}")
check(len(g["coordinates"]) == n,
      f"LineString has {len(g['coordinates'])} positions, path {n} vertices")
check(props.get("distance") == value,
      f"GeoJSON distance {props.get('distance')}, gsp path prints {value}")
check(props.get("ids") == ids, "GeoJSON ids differ from the printed path")
check(props.get("source") == 712 and props.get("target") == 407,
      f"GeoJSON ends {props.get('source')} {props.get('target')}")
for vid, p in zip(ids, g["coordinates"]):
    check_position(p, vid, "path")
pts, root = polyline_points(svg)
check(pts == n, f"SVG polyline has {pts} points, path {n} vertices")
text = "".join(root.itertext())
check(str(value) in text, "SVG caption lacks the distance")
check(any(e.get("class") == "network" for e in root.iter(SVG_NS + "path")),
      "SVG lacks the network")

# ---- gsp sssp: the tree up to a cutoff, with the --to path
cut = 12000
tj, ts, tout = (os.path.join(WORK, x)
                for x in ("tree.geojson", "tree.svg", "dist.txt"))
r = run("sssp", "--source", "712", "--to", "407", GRAPH, "--geojson", tj,
        "--svg", ts, "--tree-cutoff", str(cut), "-o", tout)
dist = {}
with open(tout) as f:
    for line in f:
        if not line.startswith("#"):
            v, d = line.split()
            dist[int(v)] = int(d)
within = {v for v, d in dist.items() if d <= cut}
feats = load_geojson(tj)
kinds = {}
for ft in feats:
    kinds.setdefault(ft["properties"].get("kind"), []).append(ft)
check(len(kinds.get("source", [])) == 1, "tree: no single source Point")
tree = kinds.get("tree", [])
check(len(tree) == len(within) - 1,
      f"tree has {len(tree)} arcs for {len(within)} vertices within {cut}")
heads = set()
for ft in tree:
    pr, co = ft["properties"], ft["geometry"]["coordinates"]
    check(ft["geometry"]["type"] == "LineString" and len(co) == 2,
          "tree feature is not a two-position LineString")
    u, v = pr["from"], pr["to"]
    heads.add(v)
    check(pr["distance"] == dist.get(v),
          f"tree arc {u}->{v}: distance {pr['distance']}, -o says {dist.get(v)}")
    check(dist.get(u, cut + 1) <= pr["distance"],
          f"tree arc {u}->{v}: parent farther than child")
    check_position(co[0], u, "tree")
    check_position(co[1], v, "tree")
check(heads == within - {712}, "tree heads are not the vertices within cutoff")
paths = kinds.get("path", [])
check(len(paths) == 1 and len(paths[0]["geometry"]["coordinates"]) == n,
      "sssp --to path feature missing or of the wrong length")
root = ET.parse(ts).getroot()
circles = [e for g_ in root.iter(SVG_NS + "g") if g_.get("class") == "reached"
           for e in g_.iter(SVG_NS + "circle")]
check(len(circles) == len(within),
      f"sssp SVG colours {len(circles)} vertices, {len(within)} within cutoff")
check(len(set(c.get("fill") for c in circles)) > 4,
      "sssp SVG vertices are not coloured by distance")
check(any(e.get("id") == "ramp" for e in root.iter(SVG_NS + "linearGradient")),
      "sssp SVG has no legend ramp")

# ---- gsp apsp --svg: the sample path of the main job
asvg = os.path.join(WORK, "apsp.svg")
r = run("apsp", GRAPH, "--svg", asvg)
m = re.search(r"sample path.*?, (\d+) vertices", r.stdout)
check(m is not None, "apsp printed no sample path")
check(f"picture of the path: {asvg}" in r.stdout, "apsp does not say where")
pts, _ = polyline_points(asvg)
check(m is not None and pts == int(m.group(1)),
      f"apsp SVG polyline has {pts} points")

# ---- no coordinates: a clear error, no file
plain = os.path.join(WORK, "nocoords.gr")
shutil.copy(os.path.join(ROOT, "tests", "data", "gr_valid.gr"), plain)
for args in (["path", plain, "1", "5", "--geojson"],
             ["path", plain, "1", "5", "--svg"],
             ["sssp", "--source", "1", plain, "--geojson"],
             ["sssp", "--source", "1", plain, "--svg"],
             ["apsp", plain, "--svg"]):
    outf = os.path.join(WORK, "never.out")
    r = run(*args, outf, expect=3)
    check("coordinates" in r.stderr and "nocoords.co" in r.stderr,
          f"{args[0]}: unclear error: {r.stderr!r}")
    check(not os.path.exists(outf), f"{args[0]}: wrote a file anyway")

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print("check_geo: all checks passed")
