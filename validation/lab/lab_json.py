"""Shared by the lab's *_json.py report scripts: the evidence record's common fields and the
command line `SCRIPT DIR REV`."""
import datetime
import subprocess
import sys


def gpus(fields="name,driver_version"):
    """nvidia-smi's line per GPU for `fields`; [] without nvidia-smi (a report remade offline)."""
    try:
        return subprocess.run(["nvidia-smi", f"--query-gpu={fields}", "--format=csv,noheader"],
                              capture_output=True, text=True).stdout.strip().splitlines()
    except FileNotFoundError:
        return []


def with_profile_args(command):
    """`command` as run: prefixed with PROFILE_ARGS='...' when that variable gave our runs more
    options."""
    import os
    extra = os.environ.get("PROFILE_ARGS")
    return f"PROFILE_ARGS='{extra}' {command}" if extra else command


def measured_step_ms(path):
    """The time of one measured step (after the warm-up) that our training applications print
    ("50 step(s) in 1060.8 ms", "50 measured step(s) in ..."), from their output file; None
    when it is not there."""
    import re
    m = re.search(r"(\d+) (?:measured )?step\(s\) in ([\d.]+) ms",
                  open(path, errors="replace").read())
    return round(float(m.group(2)) / int(m.group(1)), 3) if m else None


def step_and_long_walls(w):
    """Per variant, from the `timed step.V.R` and `timed long.V.R` runs of a lab script in W: the
    measured step's time (ms; None where not printed) and the 100,000 launches' wall (s), a list
    over the rounds each."""
    import glob
    import os
    variants = {}
    for wall in sorted(glob.glob(f"{w}/step.*.wall")):
        name, rnd = os.path.basename(wall)[len("step."):-len(".wall")].rsplit(".", 1)
        v = variants.setdefault(name, {"step_ms": [], "long_100k_s": []})
        v["step_ms"].append(measured_step_ms(f"{w}/step.{name}.{rnd}.out"))
        v["long_100k_s"].append(round(float(open(f"{w}/long.{name}.{rnd}.wall").read()), 3))
    return variants


def over_alone(variants, step_launches, pick):
    """Adds to each of step_and_long_walls' variants its cost per launch over the variant "alone"
    (us): the step's over its `step_launches` launches and the 100,000 launches', each from
    `pick` (min, or statistics.median) of the rounds."""
    alone = variants.get("alone")
    if not alone:
        return variants
    alone_steps = [s for s in alone["step_ms"] if s is not None]
    for v in variants.values():
        steps = [s for s in v["step_ms"] if s is not None]
        if steps and alone_steps:
            extra = pick(steps) - pick(alone_steps)
            v["step_us_per_launch_over_alone"] = round(1e3 * extra / step_launches, 2)
        extra = pick(v["long_100k_s"]) - pick(alone["long_100k_s"])
        v["long_us_per_launch_over_alone"] = round(1e6 * extra / 100000, 2)
    return variants


def lab_device(w):
    """The GPU line lab-start.sh wrote in W (name, UUID, driver, clocks)."""
    return open(f"{w}/device.txt").read().strip()


def record(what, command, rev, device=None, **parts):
    """A roofkit.validation/1 record: what, command, device (the first GPU's name and driver
    unless given), date, revision, then `parts` in order."""
    return {"schema": "roofkit.validation/1", "what": what, "command": command,
            "device": device if device is not None else (gpus() or [""])[0],
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "git_revision": rev, **parts}


def main(argv, report, usage):
    """`SCRIPT DIR REV`: prints report(DIR, REV) as JSON; else exits with `usage`."""
    import json
    if len(argv) == 3:
        print(json.dumps(report(argv[1], argv[2]), indent=1))
        return 0
    sys.exit(usage)
