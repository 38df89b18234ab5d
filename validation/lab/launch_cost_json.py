"""launch-cost.sh's evidence record: per variant (alone, the defaults, each cut), the MLP-Mixer
step's time per measured step and the wall time of 100,000 tiny launches, in each round, and the
profiler's cost per launch over the application alone.
Usage: launch_cost_json.py W REV"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lab_json import lab_device, main, over_alone, record, step_and_long_walls  # noqa: E402

STEP_LAUNCHES = 860  # the MLP-Mixer step's launches a step (42,986 in 50 steps)


def report(w, rev):
    variants = over_alone(step_and_long_walls(w), STEP_LAUNCHES, min)
    return record(
        "The profiler's cost on every launch in a training loop's steady state: the MLP-Mixer "
        "step's measured steps (after its warm-up, every shape measured) and 100,000 tiny "
        "launches, alone, under profile with the defaults, and with one part of the per-launch "
        "work cut at a time (entry: the launch callback returns at once; timer: no events; "
        "spans: kernel activity records read but not matched; activity off); two rounds, the "
        "better of each taken",
        "patch -p1 < validation/lab/launch-cost.patch; OUT=dir REV=rev "
        "validation/lab/launch-cost.sh", rev,
        device=lab_device(w), variants=variants)


if __name__ == "__main__":
    main(sys.argv, report, "usage: launch_cost_json.py W REV")
