#!/usr/bin/env python3
"""Docs that run: the checks behind the docs_* tests (tests/CMakeLists.txt).

  check_docs.py plots SOURCE_DIR TMPDIR
      bench/plot.py regenerates the plots of docs/performance.md from
      bench/results into TMPDIR; each must equal docs/images/<name> byte for
      byte (after a new benchmark run: run bench/plot.py, commit both).
  check_docs.py readme SOURCE_DIR PROGRAM
      PROGRAM is README.md's C snippet (the block after
      <!-- readme-snippet -->), compiled against the library; run from
      SOURCE_DIR, its stdout must be the block after
      <!-- readme-snippet-output -->, and its exit status 0.
  check_docs.py cli SOURCE_DIR GSP TMPDIR
      every ```console block of docs/cli.md is run: a line "$ CMD" runs CMD
      with sh, `gsp` being the built program, in TMPDIR (data/ there is the
      repository's), with GSP_BACKEND=cpu; the lines up to the next "$ "
      are its stdout, and "[exit N]" its exit status (default 0). Times and
      rates (a number before " s" or " G") are masked on both sides.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def block_after(text, marker, lang):
    """The body of the first ```lang fence after marker."""
    i = text.find(marker)
    if i < 0:
        fail("marker %s not found" % marker)
    m = re.compile(r"```%s\n(.*?)```" % re.escape(lang), re.S).search(text, i)
    if not m:
        fail("no ```%s block after %s" % (lang, marker))
    return m.group(1)


def diff(expected, got):
    import difflib
    return "".join(difflib.unified_diff(expected.splitlines(True), got.splitlines(True), "documented", "actual"))


def check_plots(src, tmp):
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    subprocess.run([sys.executable, os.path.join(src, "bench", "plot.py"), "--results",
                    os.path.join(src, "bench", "results"), "--out", tmp], check=True)
    made = sorted(os.listdir(tmp))
    if not made:
        fail("bench/plot.py wrote no plot")
    bad = []
    for name in made:
        committed = os.path.join(src, "docs", "images", name)
        if not os.path.exists(committed):
            bad.append("%s: not committed in docs/images" % name)
        elif open(committed, "rb").read() != open(os.path.join(tmp, name), "rb").read():
            bad.append("%s: differs from the CSVs' plot (run bench/plot.py)" % name)
    if bad:
        fail("; ".join(bad))
    print("plots equal to the committed ones: " + ", ".join(made))


def check_readme(src, program):
    text = open(os.path.join(src, "README.md")).read()
    want = block_after(text, "<!-- readme-snippet-output -->", "text")
    env = dict(os.environ, GSP_BACKEND="cpu")
    p = subprocess.run([program], cwd=src, env=env, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        fail("the README snippet exited %d: %s" % (p.returncode, p.stderr))
    if p.stdout != want:
        fail("the README snippet's output differs from README.md:\n" + diff(want, p.stdout))
    print("README snippet: output as documented")


MASK = [
    (re.compile(r"\d+(\.\d+)?(e[+-]?\d+)? s\b"), "<T> s"),
    (re.compile(r"\d+(\.\d+)? G\b"), "<R> G"),
]


def mask(s):
    for r, t in MASK:
        s = r.sub(t, s)
    return s


def parse_console(text):
    """(command, expected stdout, expected exit) of every ```console block."""
    cases = []
    for body in re.findall(r"```console\n(.*?)```", text, re.S):
        cmd = None
        for line in body.splitlines(True):
            if line.startswith("$ "):
                if cmd is not None:
                    cases.append(cmd)
                cmd = [line[2:].strip(), "", 0]
            elif cmd is None:
                fail("a ```console block must start with a '$ ' line: %r" % line)
            elif re.fullmatch(r"\[exit (\d+)\]\n?", line):
                cmd[2] = int(re.fullmatch(r"\[exit (\d+)\]\n?", line).group(1))
            else:
                cmd[1] += line
        if cmd is not None:
            cases.append(cmd)
    return cases


def check_cli(src, gsp, tmp):
    cases = parse_console(open(os.path.join(src, "docs", "cli.md")).read())
    if not cases:
        fail("docs/cli.md has no ```console example")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    os.symlink(os.path.abspath(os.path.join(src, "data")), os.path.join(tmp, "data"))
    bindir = tempfile.mkdtemp(dir=tmp)
    os.symlink(os.path.abspath(gsp), os.path.join(bindir, "gsp"))
    env = dict(os.environ, GSP_BACKEND="cpu", PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    bad = 0
    for cmd, want, code in cases:
        p = subprocess.run(cmd, shell=True, cwd=tmp, env=env, capture_output=True, text=True, timeout=600)
        if p.returncode != code:
            print("FAIL: `%s` exited %d, documented %d\n%s" % (cmd, p.returncode, code, p.stderr))
            bad += 1
        elif mask(p.stdout) != mask(want):
            print("FAIL: `%s`: output differs from docs/cli.md\n%s" % (cmd, diff(mask(want), mask(p.stdout))))
            bad += 1
        else:
            print("ok: " + cmd)
    if bad:
        fail("%d of %d docs/cli.md examples differ" % (bad, len(cases)))
    print("docs/cli.md: %d examples as documented" % len(cases))


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    what, src = sys.argv[1], sys.argv[2]
    if what == "plots" and len(sys.argv) == 4:
        check_plots(src, sys.argv[3])
    elif what == "readme" and len(sys.argv) == 4:
        check_readme(src, sys.argv[3])
    elif what == "cli" and len(sys.argv) == 5:
        check_cli(src, sys.argv[3], sys.argv[4])
    else:
        fail(__doc__)


if __name__ == "__main__":
    main()
