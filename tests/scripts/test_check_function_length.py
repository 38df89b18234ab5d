#!/usr/bin/env python3
"""Tests scripts/check-function-length.py on planted sources: every kind of function body it must
measure (free, member inside and outside its class, constructor with an initializer list, lambda
at namespace scope) is found at its first line with its length, and nothing else is (data
initializers, enums, braces in strings and comments). Usage: test_check_function_length.py CHECKER
"""
import os
import subprocess
import sys
import tempfile

CHECKER = sys.argv[1]


def body(n):
    """Statements that make a function body `n` lines long with its signature and closing brace."""
    return "".join(f"  x += {i};\n" for i in range(n - 2))


def planted():
    parts = []
    # line numbers are computed as the text grows
    def add(text):
        parts.append(text)

    def line():
        return "".join(parts).count("\n") + 1

    expect = {}
    add("#include <vector>\n// a comment with a brace {\nnamespace demo {\n\n")
    expect["free_long"] = (line(), 121)
    add("int free_long(int x) {\n" + body(121) + "  return x;\n}\n"[len("  return x;\n"):])
    add("int free_ok(int x) {\n" + body(120) + "}\n")
    add('const char* braces() {\n  return "{{{";\n}\n')
    expect["defaults"] = (line(), 122)
    add("int defaults(int x, std::vector<int> v = {},\n             int y = 2) {\n" + body(121) + "}\n")
    add("class widget {\npublic:\n")
    expect["inside"] = (line(), 130)
    add("  int inside(int x) const {\n" + body(130).replace("\n  ", "\n    ")[:] + "  }\n")
    add("  int member_out(int x) const;\n  widget(int a);\nprivate:\n  int a_{0}, b_;\n};\n\n")
    expect["widget::member_out"] = (line(), 125)
    add("int widget::member_out(int x) const {\n" + body(125) + "}\n")
    expect["widget::widget"] = (line(), 140)
    add("widget::widget(int a)\n    : a_{a}, b_(a) {\n  int x = 0;\n" + body(138) + "}\n")
    expect["lambda"] = (line(), 150)
    add("const auto lambda = [](int x) {\n" + body(150) + "  return x;\n};\n"[len("  return x;\n"):])
    add("const std::vector<int> table = {\n" + "".join(f"  {i},\n" for i in range(200)) + "};\n")
    add("enum class colour {\n" + "".join(f"  c{i},\n" for i in range(200)) + "};\n")
    add('const char* raw() {\n  return R"x(}}} {{ )x";\n}\n')
    add("} // namespace demo\n")
    return "".join(parts), expect


def run(args):
    return subprocess.run([sys.executable, CHECKER] + args, capture_output=True, text=True)


def main():
    failures = []
    text, expect = planted()
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "src", "skip"))
        with open(os.path.join(d, "src", "planted.cpp"), "w") as f:
            f.write(text)
        with open(os.path.join(d, "src", "skip", "other.cpp"), "w") as f:
            f.write("void other(int x) {\n" + body(300) + "}\n")
        r = run(["--root", d, "--limit", "120", "src", "--exclude", "src/skip"])
        if r.returncode != 1:
            failures.append(f"exit {r.returncode}, expected 1\n{r.stdout}{r.stderr}")
        found = {}
        for out_line in r.stdout.splitlines():
            where, rest = out_line.split(": ", 1)
            name = rest.split(" is ")[0]
            length = int(rest.split(" is ")[1].split(" ")[0])
            found[name] = (int(where.rsplit(":", 1)[1]), length)
        for name, want in expect.items():
            if found.get(name) != want:
                failures.append(f"{name}: expected line {want[0]}, {want[1]} lines; got "
                                f"{found.get(name)}")
        for name in found:
            if name not in expect:
                failures.append(f"reported {name} {found[name]}, which is not over the limit")
        r = run(["--root", d, "--limit", "200", "src", "--exclude", "src/skip"])
        if r.returncode != 0 or r.stdout:
            failures.append(f"at limit 200: exit {r.returncode}, output {r.stdout!r}")
        r = run(["--root", d, "--limit", "200", "src"])
        if r.returncode != 1 or "other" not in r.stdout:
            failures.append(f"without --exclude the 300-line function is missed: {r.stdout!r}")
    for f in failures:
        print("FAIL:", f)
    print("ok" if not failures else f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
