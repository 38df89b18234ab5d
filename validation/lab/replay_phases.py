"""Shared by the lab's A/B scripts: the lines ROOFKIT_REPLAY_PHASES=1 prints (milliseconds per
profiled launch by phase, with the notes on images, passes and batches), and two record logs
compared launch by launch through records_diff.py."""
import json
import os
import re
import subprocess
import sys

NOTES = (r"largest counter image|launch calls by pass|sets of passes|ended by|set-up and warm-up"
         r"|profiler enabled")


def phases(stderr_path):
    """{phase: ms per profiled launch, "notes": [...]} from a run's stderr."""
    out = {}
    for line in open(stderr_path):
        m = re.match(r"roofkit-inject:\s+(.+?)\s{2,}[\d.]+ s\s+([\d.]+) ms/launch", line)
        if m:
            out[m.group(1).strip()] = float(m.group(2))
        elif re.search(NOTES, line):
            out.setdefault("notes", []).append(line.strip())
    return out


def records_diff(a, b, keys=None):
    """records_diff.py's verdict on two record logs (only `keys` of it when given), or
    {"error": ...}."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "records_diff.py")
    try:
        d = json.loads(subprocess.run([sys.executable, script, a, b], capture_output=True,
                                      text=True).stdout)
    except (OSError, ValueError) as e:
        return {"error": str(e)}
    return {k: d.get(k) for k in keys} if keys else d
