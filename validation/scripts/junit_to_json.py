"""Converts a ctest JUnit report (ctest --output-junit) into the roofkit.validation/1 record of
validation/data/gpu-tests-*.json: one entry per test case with its time and status.
Usage: python3 validation/scripts/junit_to_json.py REPORT.xml OUT.json REVISION "COMMAND" "WHAT"
       [DEVICE]   (DEVICE: for a report converted away from the GPU machine, the device line that
                   machine's gpu-check step log gives; otherwise nvidia-smi here names it)"""
import datetime
import json
import subprocess
import sys
import xml.etree.ElementTree as ET


def device_here():
    """The GPU this machine really has, as nvidia-smi names it, or "no GPU"."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                              "--format=csv,noheader"], capture_output=True, text=True,
                             timeout=60, check=True).stdout.strip().splitlines()
    except (OSError, subprocess.SubprocessError):
        return "no GPU"
    if not out:
        return "no GPU"
    name, _, driver = out[0].partition(",")
    more = f" (and {len(out) - 1} more)" if len(out) > 1 else ""
    return f"{name.strip()}, driver {driver.strip()}{more}"


def main():
    report, out, revision, command, what = sys.argv[1:6]
    device = sys.argv[6] if len(sys.argv) > 6 else device_here()
    root = ET.parse(report).getroot()
    cases = []
    for c in root.iter("testcase"):
        status = c.get("status", "run")
        if c.find("failure") is not None:
            status = "failed"
        elif c.find("skipped") is not None:
            status = "skipped"
        cases.append({"name": c.get("name"), "time_s": float(c.get("time", 0)), "status": status})
    doc = {"schema": "roofkit.validation/1", "what": what,
           "device": device,
           "date": datetime.date.today().isoformat(), "git_revision": revision, "command": command,
           "tests": len(cases), "failures": sum(c["status"] == "failed" for c in cases),
           "skipped": sum(c["status"] == "skipped" for c in cases), "cases": cases}
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"{out}: {doc['tests']} tests, {doc['failures']} failed, {doc['skipped']} skipped")


if __name__ == "__main__":
    main()
