#!/usr/bin/env bash
# scripts/junit-skips.py: a GPU check run never reads a skip as a pass.
set -u
tool="$1/scripts/junit-skips.py"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail=0
expect() { # expect CODE DESCRIPTION ARGS...
  local want="$1" what="$2"
  shift 2
  python3 "$tool" "$@" >/dev/null 2>&1
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: $what: exit $got, expected $want"
    fail=1
  fi
}
cat >"$dir/all-skipped.xml" <<'X'
<testsuite><testcase name="a.b" status="run"><skipped message="77"/></testcase>
<testcase name="a.c" status="run"><skipped message="77"/></testcase></testsuite>
X
cat >"$dir/one-skipped.xml" <<'X'
<testsuite><testcase name="a.b" status="run"/><testcase name="cli.schema.ceilings" status="run"><skipped/></testcase></testsuite>
X
cat >"$dir/none-skipped.xml" <<'X'
<testsuite><testcase name="a.b" status="run"/><testcase name="a.c" status="fail"><failure/></testcase></testsuite>
X
cat >"$dir/notrun.xml" <<'X'
<testsuite><testcase name="a.b" status="run"/><testcase name="a.d" status="notrun"/></testsuite>
X
expect 1 "every test skipped (a GPU machine where all exit 77)" "$dir/all-skipped.xml"
expect 1 "every test skipped, some allowed" "$dir/all-skipped.xml" '^a\.b$'
expect 1 "one skip not allowed" "$dir/one-skipped.xml"
expect 0 "one skip, allowed by name" "$dir/one-skipped.xml" 'cli\.schema\.ceilings'
expect 1 "a test not run" "$dir/notrun.xml"
expect 0 "no skip (failures are ctest's to report)" "$dir/none-skipped.xml"
expect 2 "an unreadable report" "$dir/missing.xml"
exit $fail
