#!/usr/bin/env python3
"""Join bench_user_call's CSV(s) with bench_closure_gpu --user's (the kernel
alone, device-resident input) into one CSV and a Markdown table.

  python3 bench/user_call_table.py OUT.csv KERNEL.csv USER.csv [USER_CPU.csv]

Each GPU closure row gets the kernel row of the same type, semiring and n
(successors: tiled+paths; bool: tiled-bits); the gsp_apsp rows get the
gsp_msssp row of the same run (their bound). CPU rows carry their kernel
(bench_user_call measures it there); their target is the kernel + 10%.
"""
import csv
import sys


def main():
    out, kernel_csv, users = sys.argv[1], sys.argv[2], sys.argv[3:]
    kern = {}
    with open(kernel_csv) as f:
        for r in csv.DictReader(f):
            kern[(r["impl"], r["type"], int(r["n"]))] = float(r["seconds"])
    rows = []
    keys = ["row", "n", "backend", "in_s", "call_s", "out_s", "total_s", "target_s", "kernel_s"]
    for path in users:
        with open(path) as f:
            for line in f.read().splitlines()[1:]:
                if line.startswith('"'):  # quoted row name
                    rows.append(dict(zip(keys, next(csv.reader([line])))))
                else:  # older files: the row name may hold commas
                    parts = line.rsplit(",", 8 if line.count(",") >= 8 else 7)
                    rows.append(dict(zip(keys, parts)))
    msssp = {r["n"]: float(r["call_s"]) for r in rows if r["row"].startswith("gsp_msssp") and r["backend"] == "cuda"}
    msssp_cpu = {r["n"]: float(r["call_s"]) for r in rows if r["row"].startswith("gsp_msssp") and r["backend"] == "cpu"}
    def kernel_of(r):
        if r["backend"] != "cuda":
            k = r.get("kernel_s", "")
            if k not in ("", "nan"):
                return float(k)
            return msssp_cpu.get(r["n"]) if r["row"].startswith("gsp_apsp random") else None
        n, name = int(r["n"]), r["row"]
        if name.startswith("fp32 + succ"):
            return kern.get(("tiled+paths", "fp32", n))
        if name.startswith("fp32"):
            return kern.get(("tiled", "fp32", n))
        if name.startswith("int32"):
            return kern.get(("tiled-dpx", "int32", n))
        if name.startswith("bool"):
            return kern.get(("tiled-bits", "bool", n))
        if name.startswith("gsp_apsp random"):
            return msssp.get(r["n"])
        return None
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["row", "n", "backend", "in_s", "call_s", "out_s", "total_s", "target_s", "kernel_s", "met"])
        for r in rows:
            k = kernel_of(r)
            t = r["target_s"]
            if r["backend"] == "cpu" and k is not None:  # the kernel + 10%
                t = "%.6f" % (1.1 * k)
            met = "" if t in ("", "nan") else ("yes" if float(r["total_s"]) <= float(t) else "no")
            w.writerow([r["row"], r["n"], r["backend"], r["in_s"], r["call_s"], r["out_s"], r["total_s"],
                        "" if t == "nan" else t, "" if k is None else "%.6f" % k, met])
            print("| %-26s | %6s | %4s | %8s | %8.4f | %8s |" % (
                r["row"], r["n"], r["backend"], "" if t == "nan" else t, float(r["total_s"]),
                "-" if k is None else "%.4f" % k))


if __name__ == "__main__":
    main()
