#!/usr/bin/env python3
"""Lists the skipped (and not run) test cases of a ctest JUnit report and fails when any of them
is not allowed. Used by scripts/gpu-check.sh: on a GPU machine a skip is a failure unless the run
names it.
Usage: scripts/junit-skips.py REPORT.xml [ALLOWED_REGEX]
Exit 0: no skip outside ALLOWED_REGEX (and the report holds at least one test that ran);
exit 1: a skip not allowed, or no test ran at all; exit 2: the report cannot be read."""
import re
import sys
import xml.etree.ElementTree as ET


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    allowed = re.compile(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else None
    try:
        root = ET.parse(sys.argv[1]).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"junit-skips: cannot read {sys.argv[1]}: {e}", file=sys.stderr)
        return 2
    ran, skipped, forbidden = 0, [], []
    for case in root.iter("testcase"):
        name = case.get("name", "")
        status = case.get("status", "run")
        if case.find("skipped") is not None or status in ("notrun", "disabled", "skipped"):
            skipped.append(name)
            if not (allowed and allowed.search(name)):
                forbidden.append(name)
        else:
            ran += 1
    if skipped:
        print(f"{len(skipped)} skipped: " + ", ".join(skipped))
    if forbidden:
        print(f"junit-skips: {len(forbidden)} test(s) skipped without being allowed "
              "(ROOFKIT_ALLOW_SKIP): " + ", ".join(forbidden), file=sys.stderr)
        return 1
    if ran == 0:
        print("junit-skips: no test ran", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
