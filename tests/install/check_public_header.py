#!/usr/bin/env python3
"""gsp.h's advanced part is opt-in (GSP_ADVANCED_API, as zstd's
ZSTD_STATIC_LINKING_ONLY): every name it declares fails to compile in a
program that includes gsp.h without the macro, and compiles with it; a
program using the stable part compiles either way; and every options
struct of the stable part that has advanced options reaches them through
one member, `const <name> *advanced`.

usage: check_public_header.py CC INCLUDE_DIR
"""
import os
import re
import subprocess
import sys
import tempfile

BANNER = "ADVANCED API"


def advanced_names(text):
    part = text[text.index(BANNER):]
    names = set(re.findall(r"^gsp_info (gsp_\w+)\(", part, re.M))       # functions
    names |= {"struct " + n for n in re.findall(r"^struct (gsp_\w+) \{", part, re.M)}
    names |= set(re.findall(r"^\} (gsp_\w+);", part, re.M))              # typedef structs
    names |= set(re.findall(r"^typedef [^;]*\(\*(gsp_\w+)\)", part, re.M))  # function types
    return sorted(names)


def use(name):
    if name.startswith("struct ") or re.match(r"gsp_\w+_(report|fn|advanced)$", name):
        return "int use(void) { return (int)sizeof(%s); }\n" % name
    return "void *use(void) { return (void *)&%s; }\n" % name


def compiles(cc, inc, body, macro):
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "t.c")
        with open(src, "w") as f:
            f.write(("#define GSP_ADVANCED_API\n" if macro else "") + '#include "gsp.h"\n' + body)
        r = subprocess.run([cc, "-std=c11", "-fsyntax-only", "-Werror", "-I", inc, src],
                           capture_output=True, text=True)
        return r.returncode == 0, r.stderr


def main(cc, inc):
    with open(os.path.join(inc, "gsp.h"), encoding="utf-8") as f:
        text = f.read()
    errors = []
    names = advanced_names(text)
    if len(names) < 5:
        errors.append("found only %d names in the advanced part: %s" % (len(names), names))
    for name in names:
        ok, err = compiles(cc, inc, use(name), macro=True)
        if not ok:
            errors.append("%s does not compile with GSP_ADVANCED_API: %s" % (name, err.strip()[:300]))
        ok, _ = compiles(cc, inc, use(name), macro=False)
        if ok:
            errors.append("%s is visible without GSP_ADVANCED_API" % name)
    stable = ("int use(void) { gsp_apsp_opts o = {.advanced = NULL}; gsp_matrix A = NULL;\n"
              "  return gsp_apsp(&A, NULL, A, &o) + gsp_closure(A, GSP_MIN_PLUS); }\n")
    ok, err = compiles(cc, inc, stable, macro=False)
    if not ok:
        errors.append("the stable part does not compile without the macro: %s" % err.strip()[:300])
    # one extension convention: an options struct with advanced options has
    # exactly one member naming them, `const <T> *advanced`
    for members, opts in re.findall(r"typedef struct \{([^}]*)\} (gsp_\w+_opts);", text, re.S):
        adv = re.findall(r"const (gsp_\w+) \*advanced;", members)
        if len(adv) > 1:
            errors.append("%s has %d advanced members" % (opts, len(adv)))
        if adv and adv[0] != opts.replace("_opts", "_advanced"):
            errors.append("%s's advanced member is a %s, not a %s" % (opts, adv[0], opts.replace("_opts", "_advanced")))
    for e in errors:
        print("public header: " + e)
    print("public header: %d advanced names checked, %d problems" % (len(names), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
