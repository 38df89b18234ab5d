"""Shared by setup-split.sh, steps-per-launch.sh and switch-ab.sh: one JSON of the runs a lab
script timed in its work directory W (timed.sh's NAME.wall, NAME.err; a profiled run's
NAME.json): the device, the cache files, the applications' wall times alone, and for each
profiled run its launches, set-up, overhead per launch with and without the set-up, wall time
and replay phases; with DIFFS (pairs A:B), records_diff.py's verdict on the record logs
NAME.records.jsonl of each pair.
Usage: per_launch_json.py W ALONE_NAMES RUN_NAMES [DIFFS] (comma-separated)"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replay_phases import phases, records_diff  # noqa: E402

KEYS = ("total_launches", "profiled_launches", "profile_setup_s", "profile_overhead_s",
        "profile_overhead_per_launch_s", "profile_overhead_per_launch_after_setup_s")


def main(w, alone, runs, diffs=()):
    wall = lambda n: float(open(f"{w}/{n}.wall").read())
    out = {"device": open(f"{w}/device.txt").read().strip(),
           "cache_files": sorted(os.listdir(f"{w}/cache/roofkit"))
           if os.path.isdir(f"{w}/cache/roofkit") else [],
           "alone_wall_s": {n: wall(n) for n in alone},
           "runs": {}}
    for n in runs:
        try:
            p = json.load(open(f"{w}/{n}.json"))["profile"]
            r = {k: p.get(k) for k in KEYS}
            r["wall_s"] = wall(n)
            r["ms_per_profiled_launch"] = phases(f"{w}/{n}.err")
            out["runs"][n] = r
        except Exception as e:  # a failed run is recorded with its stderr's tail
            out["runs"][n] = {"error": str(e),
                              "stderr_tail": open(f"{w}/{n}.err").read()[-1500:]}
    for pair in diffs:
        a, b = pair.split(":")
        out[f"diff_{a}_{b}"] = records_diff(f"{w}/{a}.records.jsonl", f"{w}/{b}.records.jsonl")
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(","),
         sys.argv[4].split(",") if len(sys.argv) > 4 else ())
