#!/usr/bin/env python3
"""Names the frames of a glibc backtrace (stdin) that point into a shared library by offset
("lib.so(+0x1234)[...]"), from the library's symbol table (nm -C), and prints the lines."""
import bisect
import re
import subprocess
import sys

tables = {}


def table(path):
    if path not in tables:
        rows = []
        try:
            out = subprocess.run(["nm", "-C", "--defined-only", path], capture_output=True,
                                 text=True).stdout
        except OSError:
            out = ""
        for line in out.splitlines():
            parts = line.split(" ", 2)
            if len(parts) == 3 and parts[1].lower() in "tw":
                rows.append((int(parts[0], 16), parts[2]))
        rows.sort()
        tables[path] = rows
    return tables[path]


for line in sys.stdin:
    line = line.rstrip("\n")
    m = re.match(r"(\S+\.so[.\d]*)\(\+0x([0-9a-f]+)\)", line)
    if m:
        rows = table(m.group(1))
        i = bisect.bisect_right(rows, (int(m.group(2), 16), "\U0010ffff")) - 1
        if i >= 0:
            line += "  " + rows[i][1][:160]
    print(line)
