#!/usr/bin/env python3
"""Wraps one check's results into a roofkit.validation/1 evidence file: what it backs, the command,
the device it really ran on (nvidia-smi), the date and the revision.
Usage: evidence_record.py OUT.json WHAT COMMAND REVISION RESULTS.json
RESULTS.json holds the check's own figures (any JSON value)."""
import datetime
import json
import subprocess
import sys


def device_here():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,uuid,driver_version,clocks.max.sm",
                              "--format=csv,noheader"], capture_output=True, text=True,
                             timeout=60, check=True).stdout.strip().splitlines()
    except (OSError, subprocess.SubprocessError):
        return "no GPU"
    return "; ".join(out) if out else "no GPU"


def main():
    if len(sys.argv) != 6:
        print(__doc__, file=sys.stderr)
        return 2
    out, what, command, revision, results = sys.argv[1:]
    with open(results) as f:
        figures = json.load(f)
    record = {
        "schema": "roofkit.validation/1",
        "what": what,
        "command": command,
        "device": device_here(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "revision": revision,
        "results": figures,
    }
    with open(out, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
