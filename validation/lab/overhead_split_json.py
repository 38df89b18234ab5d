#!/usr/bin/env python3
"""The log of validation/lab/overhead-split.sh as an evidence record: wall times, the split of
the profiled run at the injection's start and exit, and the replay phases per profiled launch.
Usage: overhead_split_json.py LOG REVISION DEVICE > overhead-split.json"""
import datetime
import json
import re
import sys

log, rev, device = sys.argv[1:4]
text = open(log, errors="replace").read()
alone = re.search(r"^alone steps=(\d+) start_ns=(\d+) end_ns=(\d+)", text, re.M)
prof = re.search(r"^profiled steps=\d+ rc=(\d+) start_ns=(\d+) end_ns=(\d+) json_bytes=(\d+)",
                 text, re.M)
inj = re.search(r"injection started at (\d+) ns, exit at (\d+) ns", text)
launches = re.search(r"replay phases over (\d+) profiled launches in (\d+) sets of passes "
                     r"\((\d+) passes\)", text)
total = re.search(r"(\d+) kernel launches, (\d+) profiled", text)
phases = {m[1].strip(): float(m[2]) for m in
          re.finditer(r"roofkit-inject:\s+(\S[^\n]*?)\s+[\d.]+ s\s+([\d.]+) ms/launch", text)}
s = lambda a, b: (int(b) - int(a)) / 1e9  # noqa: E731
profiled = int(launches[1])
alone_s, prof_s = s(alone[2], alone[3]), s(prof[2], prof[3])
split = {"tool_before_the_application_s": s(prof[2], inj[1]),
         "application_with_the_injection_s": s(inj[1], inj[2]),
         "tool_after_the_application_s": s(inj[2], prof[3])}
print(json.dumps({
    "schema": "roofkit.validation/1",
    "what": "Lab record (issue 39): where the overhead per launch goes with every launch profiled "
            f"({alone[1]} steps of the training step, --sample all): the application alone, the "
            "profiled run split at the injection's start and exit, the replay phases",
    "command": "OUT=... REV=... validation/lab/overhead-split.sh BUILD",
    "device": device,
    "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    "revision": rev,
    "results": [
        {"check": "walls", "alone_s": round(alone_s, 3), "profiled_s": round(prof_s, 3),
         "profile_rc": int(prof[1]), "run_json_bytes": int(prof[4]),
         "kernel_launches": int(total[1]) if total else None, "profiled_launches": profiled,
         "sets": int(launches[2]), "passes": int(launches[3]),
         "overhead_per_profiled_launch_ms": round(1e3 * (prof_s - alone_s) / profiled, 2)},
        {"check": "split", **{k: round(v, 3) for k, v in split.items()},
         "ms_per_profiled_launch": {
             "tool_after_the_application": round(1e3 * split["tool_after_the_application_s"] /
                                                 profiled, 2),
             "in_the_application": round(1e3 * (split["tool_before_the_application_s"] +
                                                split["application_with_the_injection_s"] -
                                                alone_s) / profiled, 2)}},
        {"check": "replay_phases_ms_per_profiled_launch", **phases},
    ]}, indent=1))
