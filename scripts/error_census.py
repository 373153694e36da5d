#!/usr/bin/env python3
"""Per-function census of the errors a test run made the library return.

Run the suites with GSP_TEST_ERROR_LOG=<log> (tests/support/errlog appends
"<code>\\t<message>" for every error the library records), then

    scripts/error_census.py <log> [include/gsp.h include/gsp_mpi.h ...]

prints a Markdown table: for every public function returning gsp_info, the
distinct checks that failed (the [file:line] a message ends in), the error
codes seen, and how many error returns there were in all; allocation
failures (GSP_OUT_OF_MEMORY) are only counted in all (their messages mostly come from inner allocators
and name no function; the walks of test_alloc_failures & co. cover them). Messages name the function
that failed ("gsp_apsp: cutoff -1 must be >= 0 ... [gsp_apsp.c:397]"), so a
check inside a nested public call counts for the function it names.
"""
import collections
import re
import sys

CODES = {}  # value -> name, from gsp.h's GSP_INFO_LIST
READERS = "readers and writers (messages name the file)"
# functions whose messages carry another public name (one implementation)
SHARED = {"gsp_closure_ext": "gsp_closure"}


def public_functions(headers):
    names = []
    for h in headers:
        text = open(h).read()
        names += re.findall(r"^gsp_info\s+(gsp_[a-z0-9_]+)\s*\(", text, re.M)
        for name, value in re.findall(r"X\((GSP_[A-Z_]+),\s*(-?\d+)", text):
            CODES[int(value)] = name
    return sorted(set(names))


def main():
    log = sys.argv[1]
    headers = sys.argv[2:] or ["include/gsp.h", "include/gsp_mpi.h"]
    funcs = public_functions(headers)
    sites = collections.defaultdict(set)
    codes = collections.defaultdict(set)
    calls = collections.Counter()
    oom = collections.Counter()
    other = 0
    with open(log, errors="replace") as f:
        for line in f:
            code, _, msg = line.rstrip("\n").partition("\t")
            m = re.match(r"(gsp_[a-z0-9_]+)", msg)
            fn = m.group(1) if m else None
            c = int(code)
            if CODES.get(c) == "GSP_OUT_OF_MEMORY":
                oom[fn] += 1  # inner allocators' messages name no function
                continue
            site = re.search(r"\[([^\]]+:\d+)\]\s*$", msg)
            if not fn and site and re.match(r"(io_|read_|write_)", site.group(1)):
                fn = READERS  # reader messages name the file and line instead
            if not fn:
                other += 1
                continue
            sites[fn].add(site.group(1) if site else msg)
            codes[fn].add(CODES.get(c, str(c)).replace("GSP_", ""))
            calls[fn] += 1
    print("| function | distinct checks failed | codes | error returns |")
    print("|---|---|---|---|")
    for fn in funcs:
        if fn in SHARED and not sites[fn]:
            print("| `%s` | with `%s` (its messages name that) | | |" % (fn, SHARED[fn]))
            continue
        print("| `%s` | %d | %s | %d |" % (fn, len(sites[fn]), ", ".join(sorted(codes[fn])) or "-", calls[fn]))
    if sites[READERS]:
        print("| %s | %d | %s | %d |" % (READERS, len(sites[READERS]), ", ".join(sorted(codes[READERS])),
                                       calls[READERS]))
    missing = [fn for fn in funcs if not sites[fn] and fn not in SHARED]
    print()
    print("%d public functions; %d with at least one failed check of their own; %d distinct checks in all; "
          "%d error returns; %d allocation failures" % (len(funcs), len(funcs) - len(missing) - len(SHARED),
                                      sum(len(v) for v in sites.values()),
                                      sum(calls.values()), sum(oom.values())))
    if missing:
        print("no failed check recorded: " + ", ".join(missing))
    if other:
        print("%d other messages (inner steps whose error the caller restates, e.g. Johnson's potentials)" % other)


if __name__ == "__main__":
    main()
