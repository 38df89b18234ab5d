"""wall-timeline.sh's evidence record: per application and run, the wall time and its parts from
the stamped output: the tool's start before the application's first line, the application up to
its final line (its measured steps apart), the end after it; under `profile`, the injection's
start after the application's and its exit before the tool's end, the profiler time, the
launches profiled and their sets of passes, and the callbacks' time.
Usage: wall_timeline_json.py W REV"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lab_json import lab_device, main, record  # noqa: E402


def stamped(path):
    """(first stamp, last stamp, [(stamp, text)]) of a run's file."""
    lines = open(path, errors="replace").read().splitlines()
    out = [(float(l.split(" ", 1)[0]), l.split(" ", 1)[1] if " " in l else "") for l in lines[1:-1]]
    return float(lines[0].split()[1]), float(lines[-1].split()[1]), out


def first(lines, pattern):
    return next(((t, m) for t, s in lines if (m := re.search(pattern, s))), (None, None))


def parts(path):
    t0, t1, lines = stamped(path)
    mark, _ = first(lines, r"MARK start")
    final, m = first(lines, r"(\d+) step\(s\) in ([\d.]+) ms")
    p = {"wall_s": round(t1 - t0, 2), "tool_before_app_s": round(mark - t0, 2),
         "app_to_final_line_s": round(final - mark, 2),
         "measured_steps_s": round(float(m.group(2)) / 1e3, 3),
         "final_line_to_end_s": round(t1 - final, 2)}
    _, inj = first(lines, r"injection started at (\d+) ns, exit at (\d+) ns")
    if inj:
        p["app_start_to_injection_s"] = round(int(inj.group(1)) / 1e9 - mark, 2)
        p["injection_exit_to_end_s"] = round(t1 - int(inj.group(2)) / 1e9, 2)
    _, prof = first(lines, r"profiler time ([\d.]+) s")
    if prof:
        p["profiler_time_s"] = float(prof.group(1))
    _, sets = first(lines, r"replay phases over (\d+) profiled launches in (\d+) sets")
    if sets:
        p["profiled_launches"], p["sets_of_passes"] = int(sets.group(1)), int(sets.group(2))
    _, cb = first(lines, r"(\d+) callbacks took ([\d.]+) s")
    if cb:
        p["callbacks"], p["callbacks_s"] = int(cb.group(1)), float(cb.group(2))
    return p


def report(w, rev):
    apps = {}
    for path in sorted(glob.glob(f"{w}/*.*.txt")):
        app, run = os.path.basename(path)[:-4].split(".", 1)
        apps.setdefault(app, {})[run] = parts(path)
    return record(
        "Where a 50-step profiled run's wall time goes besides its measured steps: the GPT loop "
        "and the MLP-Mixer step alone, under profile with nothing selected (--kernel nomatch_zz; "
        "the GPT loop also with kernel activity off), with the defaults and alone again, each "
        "output line stamped on arrival",
        "OUT=dir REV=rev validation/lab/wall-timeline.sh", rev, device=lab_device(w), runs=apps)


if __name__ == "__main__":
    main(sys.argv, report, "usage: wall_timeline_json.py W REV")
