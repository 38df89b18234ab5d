#!/usr/bin/env python3
"""Prints every C++/CUDA function whose body is longer than a limit, with file:line.

A function is counted from the first line of its signature to the line of its closing brace.
Functions are found at namespace and class scope (free functions, member functions defined
inside or outside their class, constructors, and lambdas assigned at namespace scope); a lambda
or block inside a function counts toward that function. Exit status 1 when any function is over
the limit, 0 otherwise.

  scripts/check-function-length.py --limit 120 lib tools --exclude lib/inject
"""
import argparse
import os
import re
import sys

EXTENSIONS = (".cpp", ".hpp", ".cu", ".cuh", ".h", ".cc", ".cxx", ".in")


def blank_out(text):
    """Comments, string and character literals and preprocessor lines replaced by spaces, so
    that only code braces remain; newlines are kept so line numbers stay right."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            # A preprocessor line, with its continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c == "\n":
            out.append(c)
            at_line_start = True
            i += 1
            continue
        if c in " \t":
            out.append(c)
            i += 1
            continue
        at_line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            open_paren = text.find("(", i + 2)
            delim = text[i + 2:open_paren]
            end = text.find(")" + delim + '"', open_paren + 1)
            end = n if end < 0 else end + len(delim) + 2
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:end]))
            i = end
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


CONTAINER = re.compile(r"^(template\s*<.*>\s*)?(namespace|struct|class|union)\b|^extern\s*\"\s*\"$|^namespace$", re.S)
DATA_TYPE = re.compile(r"^(template\s*<.*>\s*)?(typedef\s+)?enum\b", re.S)
QUALIFIERS = r"(\s|const\b|noexcept\b|noexcept\s*\([^()]*\)|override\b|final\b|mutable\b|volatile\b|&|->\s*[\w:<>,\s*&\[\]()]+|requires\b[^{;]*|__\w+__\b(\s*\([^()]*\))?|\[\[[^\]]*\]\])*"
FUNCTION_HEAD = re.compile(r"(\)|\])" + QUALIFIERS + r"$", re.S)
ACCESS = re.compile(r"^(public|private|protected)\s*:(?!:)")
INIT_LIST = re.compile(r"\)" + QUALIFIERS + r":(?!:)", re.S)


def functions(code):
    """(name, first line, last line) of every function body at namespace or class scope."""
    found = []
    line_starts = [0]
    for k, ch in enumerate(code):
        if ch == "\n":
            line_starts.append(k + 1)

    def line_of(pos):
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    def matching(pos):
        depth = 0
        for k in range(pos, len(code)):
            if code[k] == "{":
                depth += 1
            elif code[k] == "}":
                depth -= 1
                if depth == 0:
                    return k
        return len(code) - 1

    def scan(begin, end):
        head_start = begin
        k = begin
        while k < end:
            ch = code[k]
            if ch in ";}":
                head_start = k + 1
                k += 1
                continue
            if ch != "{":
                k += 1
                continue
            head = code[head_start:k].strip()
            # An access specifier before a member ("public:") is not part of its head.
            access = ACCESS.match(head)
            if access:
                head_start += code[head_start:k].index(access.group(0)) + len(access.group(0))
                head = code[head_start:k].strip()
            close = matching(k)
            if head.count("(") > head.count(")"):
                # Inside a parameter list: a default argument ("= {}"), part of the head.
                k = close + 1
                continue
            if CONTAINER.match(head) or head.startswith("extern"):
                scan(k + 1, close)
                head_start = close + 1
                k = close + 1
                continue
            if DATA_TYPE.match(head):
                head_start = close + 1
                k = close + 1
                continue
            if INIT_LIST.search(head):
                # A constructor's member initializer list: a brace right after a name is a
                # member's initializer, part of the head; the body follows ')' or '}'.
                prev = code[:k].rstrip()[-1:]
                if prev.isalnum() or prev in "_>":
                    k = close + 1
                    continue
                is_function = True
            else:
                is_function = bool(FUNCTION_HEAD.search(head))
            if is_function:
                first = head_start + (len(code[head_start:k]) - len(code[head_start:k].lstrip()))
                name = re.sub(r"\s+", " ", head)
                m = re.search(r"(\w+)\s*=\s*\[", head) or re.search(
                    r"(operator\s*[^\s(]+|[~\w:]+(<[^()]*>)?)\s*\(", head)
                if m:
                    name = m.group(1)
                found.append((name, line_of(first), line_of(close)))
            head_start = close + 1
            k = close + 1

    scan(0, len(code))
    return found


def sources(paths, excludes):
    excl = [os.path.normpath(e) for e in excludes]

    def excluded(p):
        p = os.path.normpath(p)
        return any(p == e or p.startswith(e + os.sep) for e in excl)

    for path in paths:
        if os.path.isfile(path):
            if not excluded(path):
                yield path
            continue
        for root, dirs, files in os.walk(path):
            dirs.sort()
            for f in sorted(files):
                p = os.path.join(root, f)
                if f.endswith(EXTENSIONS) and not excluded(p):
                    yield p


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", help="files or folders to read")
    parser.add_argument("--limit", type=int, default=120, help="most lines a function may have")
    parser.add_argument("--exclude", action="append", default=[], metavar="PATH",
                        help="a file or folder to leave out (repeatable)")
    parser.add_argument("--root", default=".", help="folder the paths are relative to")
    args = parser.parse_args()
    os.chdir(args.root)
    over = 0
    checked = 0
    for path in sources(args.paths, args.exclude):
        with open(path, encoding="utf-8", errors="replace") as f:
            code = blank_out(f.read())
        for name, first, last in functions(code):
            checked += 1
            length = last - first + 1
            if length > args.limit:
                over += 1
                print(f"{path}:{first}: {name} is {length} lines (limit {args.limit})")
    if checked == 0:
        print("no function found: nothing was checked", file=sys.stderr)
        return 1
    sys.stdout.flush()
    print(f"{checked} functions read, {over} over {args.limit} lines", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
