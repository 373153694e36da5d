"""The ``gsp`` console command of the Python package: runs the gsp program
the wheel carries (gsp/bin/gsp), with the same arguments, exit status and
standard streams (docs/cli.md)."""

import os
import sys


def main():
    exe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "gsp")
    if not os.access(exe, os.X_OK):
        sys.exit("gsp: the command-line program is not part of this installation (%s is missing)" % exe)
    os.execv(exe, [exe] + sys.argv[1:])
