"""launch-parts.sh's evidence record: per variant, the MLP-Mixer step's time per measured step and
the wall time of 100,000 tiny launches in each round, the cost per launch over the application
alone, and the parts of a launch not profiled (us per call, from the run with the parts timed).
Usage: launch_parts_json.py W REV"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lab_json import lab_device, main, over_alone, record, step_and_long_walls  # noqa: E402
from launch_cost_json import STEP_LAUNCHES  # noqa: E402

PART = re.compile(r"roofkit-inject: ((?:lab: |launch callbacks at |session set-up|batches replayed)"
                  r".*?)\s+([\d.]+) s in (\d+) calls")


def parts(path):
    """{part: {"us_per_call", "calls"}} from a run's stderr with ROOFKIT_REPLAY_PHASES=1: the
    launch callback's parts, and the session's set-up and the batches replayed (once a run)."""
    out = {}
    for m in PART.finditer(open(path, errors="replace").read()):
        calls = int(m.group(3))
        out[m.group(1)] = {"us_per_call": round(1e6 * float(m.group(2)) / max(calls, 1), 3),
                           "calls": calls}
    return out


def report(w, rev):
    app = os.environ.get("APP", "train_step")
    launches = int(os.environ.get("STEP_LAUNCHES", STEP_LAUNCHES))
    variants = over_alone(step_and_long_walls(w), launches, min)
    for name, v in variants.items():
        for run in ("step", "long"):
            if os.path.exists(f"{w}/parts.{run}.{name}.err"):
                v[f"{run}_parts"] = parts(f"{w}/parts.{run}.{name}.err")
    return record(
        "What a launch that is not profiled costs, part by part, once each shape is measured: "
        f"validation/apps/{app}.py (30 steps, {launches} launches a step) and 100,000 tiny "
        "launches alone, under profile with the "
        "defaults and with one cut at a time (session: no counter session; capture: no "
        "cuStreamIsCapturing; activity off), two rounds of walls, then one run each with the "
        "launch callback's parts and the driver's launch body timed (us per call)",
        "patch -p1 < validation/lab/launch-parts.patch; OUT=dir REV=rev "
        f"APP={app} STEP_LAUNCHES={launches} validation/lab/launch-parts.sh", rev,
        device=lab_device(w), variants=variants)


if __name__ == "__main__":
    main(sys.argv, report, "usage: launch_parts_json.py W REV")
