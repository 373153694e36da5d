#!/usr/bin/env python3
"""The plots of docs/performance.md, drawn from the CSVs of bench/results.

    python3 bench/plot.py [--results bench/results] [--out docs/images]

Writes SVG text directly (the standard library only, no plotting package),
so the same CSVs always give the same bytes: tests/CMakeLists.txt
regenerates the plots into a temporary folder and compares them with the
committed ones (docs_plots). After a new run of bench/run.sh, run this
script and commit the CSV and the SVGs together.

  closure_throughput.svg  min-plus closure, tasks/s (n^3 / time) against n:
                          the GPU kernel beside its measured ceiling, the
                          naive GPU kernel, the CPU backend and scipy
                          (closure_gpu_<device>.csv)
  apsp_topologies.svg     all pairs at |V| = 4677 by graph shape: gsp_msssp,
                          with parents, and Floyd-Warshall (gsp_apsp)
                          (msssp_gpu_<device>.csv)
"""

import argparse
import csv
import math
import os

DEVICE = "nvidia-h200"       # closure_throughput: the run with scipy beside the kernel
APSP_DEVICE = "nvidia-h100"  # apsp_topologies
W, H = 820, 440
LEFT, RIGHT, TOP, BOTTOM = 84, 240, 48, 64
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def fmt(v):
    """Coordinates with two decimals: the bytes do not depend on the float path."""
    return "%.2f" % v


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def sci(v):
    """Tick label of a power of ten: 1e12 -> 10^12 (as text)."""
    e = int(round(math.log10(v)))
    return "1e%d" % e if abs(e) > 3 else ("%g" % v)


class Svg:
    def __init__(self, title):
        self.parts = [
            '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="sans-serif" font-size="12">' % (W, H, W, H),
            '<rect width="%d" height="%d" fill="white"/>' % (W, H),
            '<text x="%s" y="24" font-size="15" font-weight="bold">%s</text>' % (fmt(LEFT), esc(title)),
        ]

    def add(self, s):
        self.parts.append(s)

    def text(self, x, y, s, anchor="start", extra=""):
        self.add('<text x="%s" y="%s" text-anchor="%s"%s>%s</text>' % (fmt(x), fmt(y), anchor, extra, esc(s)))

    def line(self, x1, y1, x2, y2, stroke="#000", extra=""):
        self.add('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"%s/>'
                 % (fmt(x1), fmt(y1), fmt(x2), fmt(y2), stroke, extra))

    def write(self, path):
        with open(path, "w", newline="\n") as f:
            f.write("\n".join(self.parts + ["</svg>"]) + "\n")


class LogAxis:
    """A base-10 logarithmic axis from 10^lo to 10^hi onto pixels a..b."""

    def __init__(self, lo, hi, a, b):
        self.lo, self.hi, self.a, self.b = lo, hi, a, b

    def __call__(self, v):
        return self.a + (math.log10(v) - self.lo) / (self.hi - self.lo) * (self.b - self.a)

    def ticks(self):
        return [10.0 ** e for e in range(self.lo, self.hi + 1)]


def frame(svg, xlabel, ylabel, y):
    x0, x1, y0, y1 = LEFT, W - RIGHT, H - BOTTOM, TOP
    for t in y.ticks():
        svg.line(x0, y(t), x1, y(t), "#ddd")
        svg.text(x0 - 6, y(t) + 4, sci(t), "end")
    svg.line(x0, y0, x1, y0)
    svg.line(x0, y0, x0, y1)
    svg.text((x0 + x1) / 2, H - 18, xlabel, "middle")
    svg.text(18, (y0 + y1) / 2, ylabel, "middle",
             ' transform="rotate(-90 18 %s)"' % fmt((y0 + y1) / 2))


def legend(svg, items):
    """items: (label, color, dashed); drawn right of the plot area."""
    x, y = W - RIGHT + 16, TOP + 10
    for label, color, dashed in items:
        svg.line(x, y, x + 22, y, color, ' stroke-width="2.5"' + (' stroke-dasharray="6 4"' if dashed else ""))
        svg.text(x + 28, y + 4, label)
        y += 22


def closure_throughput(results, out):
    rows = list(csv.DictReader(open(os.path.join(results, "closure_gpu_%s.csv" % DEVICE))))
    # scipy runs in fp64 (its only closure type); every gsp row is fp32
    fp32 = [r for r in rows if r["semiring"] == "min_plus"
            and r["type"] == ("fp64" if r["impl"] == "scipy-fw" else "fp32")]
    series = [
        ("gsp GPU kernel (fp32)", "tiled"),
        ("gsp GPU, host in/out", "gpu-end2end"),
        ("naive GPU (Harish)", "naive-gpu"),
        ("gsp CPU backend, 16 cores", "gsp-cpu"),
        ("scipy floyd_warshall (fp64)", "scipy-fw"),
    ]
    ceiling = max(float(r["ceiling"]) for r in fp32 if r["impl"] == "tiled")
    svg = Svg("Min-plus closure on an NVIDIA H200: throughput against n")
    x = LogAxis(2, 5, LEFT, W - RIGHT)  # n from 100 to 100000
    y = LogAxis(8, 14, H - BOTTOM, TOP)  # n^3 / s
    frame(svg, "n (vertices), log scale", "tasks/s (n^3 / time), log scale", y)
    for n in (256, 1024, 4096, 16384, 65536):
        svg.line(x(n), H - BOTTOM, x(n), H - BOTTOM + 5)
        svg.text(x(n), H - BOTTOM + 18, str(n), "middle")
    svg.line(x(100), y(ceiling), x(100000), y(ceiling), "#000", ' stroke-width="1.5" stroke-dasharray="6 4"')
    svg.text(x(100) + 4, y(ceiling) - 6, "measured ceiling %.1fe12 (fp32 min-plus micro-kernel)" % (ceiling / 1e12))
    items = [("ceiling", "#000", True)]
    for k, (label, impl) in enumerate(series):
        pts = sorted((int(r["n"]), float(r["tasks_per_s"])) for r in fp32 if r["impl"] == impl)
        if not pts:
            continue
        c = COLORS[k]
        if len(pts) > 1:
            svg.add('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                    % (c, " ".join("%s,%s" % (fmt(x(n)), fmt(y(t))) for n, t in pts)))
        for n, t in pts:
            svg.add('<circle cx="%s" cy="%s" r="4" fill="%s"/>' % (fmt(x(n)), fmt(y(t)), c))
        items.append((label, c, False))
    legend(svg, items)
    svg.write(os.path.join(out, "closure_throughput.svg"))


def apsp_topologies(results, out):
    rows = [r for r in csv.reader(open(os.path.join(results, "msssp_gpu_%s.csv" % APSP_DEVICE))) if r[0] == "apsp"]
    # kind,backend,device,type,graph,n,m,algo,reps,median_s,min_s,rate,unit
    shapes = ["random", "power-law", "ring", "complete"]
    algos = [("msssp", "gsp_msssp"), ("msssp+parents", "gsp_msssp + parents"), ("fw", "Floyd-Warshall")]
    t = {(r[4], r[7]): float(r[9]) for r in rows}
    arcs = {r[4]: int(r[6]) for r in rows}
    svg = Svg("All pairs at |V| = 4677 on an NVIDIA H100, by graph shape")
    y = LogAxis(-2, 1, H - BOTTOM, TOP)  # seconds
    frame(svg, "graph shape (arcs)", "seconds (median of 5, result on the host), log scale", y)
    gw = (W - RIGHT - LEFT) / len(shapes)
    bw = gw / (len(algos) + 1)
    for i, g in enumerate(shapes):
        x0 = LEFT + i * gw + bw / 2
        for j, (a, _) in enumerate(algos):
            if (g, a) not in t:
                continue
            v = t[(g, a)]
            top = y(v)
            svg.add('<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>'
                    % (fmt(x0 + j * bw), fmt(top), fmt(bw - 2), fmt(H - BOTTOM - top), COLORS[j]))
            label = "%d ms" % round(v * 1000) if v < 1 else "%.2f s" % v
            svg.text(x0 + j * bw + (bw - 2) / 2, top - 4, label, "middle", ' font-size="10"')
        svg.text(LEFT + i * gw + gw / 2, H - BOTTOM + 18, "%s (%d)" % (g, arcs[g]), "middle")
    legend(svg, [(label, COLORS[j], False) for j, (_, label) in enumerate(algos)])
    svg.write(os.path.join(out, "apsp_topologies.svg"))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=os.path.join(here, "results"))
    ap.add_argument("--out", default=os.path.join(here, "..", "docs", "images"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    closure_throughput(a.results, a.out)
    apsp_topologies(a.results, a.out)


if __name__ == "__main__":
    main()
