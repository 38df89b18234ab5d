"""steady-cost.sh's evidence record: per variant (alone, nothing selected, nothing selected with
kernel activity off), the MLP-Mixer step's time per measured step and the wall time of 100,000
tiny launches in each round, and the cost per launch over the application alone (medians).
Usage: steady_cost_json.py W REV"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lab_json import lab_device, main, over_alone, record, step_and_long_walls  # noqa: E402
from launch_cost_json import STEP_LAUNCHES  # noqa: E402


def report(w, rev):
    variants = over_alone(step_and_long_walls(w), STEP_LAUNCHES, statistics.median)
    return record(
        "What every launch costs under profile once nothing is replayed: the MLP-Mixer step "
        f"(30 steps, {STEP_LAUNCHES} launches a step; its measured steps) and 100,000 tiny "
        "launches alone, under profile with nothing selected (--kernel nomatch_zz), and the same "
        "with kernel activity off, rounds in turn; the cost per launch over alone from the "
        "medians",
        "OUT=dir REV=rev validation/lab/steady-cost.sh", rev, device=lab_device(w),
        variants=variants)


if __name__ == "__main__":
    main(sys.argv, report, "usage: steady_cost_json.py W REV")
