"""Replays a batch trace (ROOFKIT_LAB_TRACE, replay-trace.patch) under other batching and sampling
policies, with a cost model fitted to the trace's own batches: seconds = set + per measured launch
x measured + per step not measured x such steps inside the passes (the steps after a batch's last
measured launch run once, outside the passes, and cost nothing here).

Trace lines: `L index shape measured in_batch`, `E effect in_batch call` (effect 1 host read,
2 replays, 3 module unload), `C measured in_passes steps seconds why`.
Usage: batch_policy_sim.py TRACE  (prints JSON)
       batch_policy_sim.py W REV  (batch-policy.sh's record: every W/APP.trace with its runs)"""
import collections
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lab_json import measured_step_ms, record  # noqa: E402

BATCH = 128  # --replay-batch's default, and the most steps a batch holds


def load(path):
    events = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if p[0] == "L":
                events.append(("L", int(p[2]), p[3] == "1"))
            elif p[0] == "E":
                events.append(("E", int(p[1]), p[3]))
            elif p[0] == "C":
                events.append(("C", int(p[1]), int(p[2]), float(p[4]), " ".join(p[5:])))
    return events


def solve3(a, b):
    """Gaussian elimination for a 3x3 system."""
    m = [row[:] + [v] for row, v in zip(a, b)]
    for i in range(3):
        pivot = max(range(i, 3), key=lambda r: abs(m[r][i]))
        m[i], m[pivot] = m[pivot], m[i]
        for r in range(3):
            if r != i:
                k = m[r][i] / m[i][i]
                m[r] = [x - k * y for x, y in zip(m[r], m[i])]
    return [m[i][3] / m[i][i] for i in range(3)]


def fit(events):
    """Least squares of each batch's seconds on (1, measured, steps not measured in the passes)."""
    rows = [(1.0, e[1], e[2] - e[1], e[3]) for e in events if e[0] == "C"]
    ata = [[sum(r[i] * r[j] for r in rows) for j in range(3)] for i in range(3)]
    atb = [sum(r[i] * r[3] for r in rows) for i in range(3)]
    set_s, measured_s, rider_s = solve3(ata, atb)
    return {"set_s": set_s, "measured_launch_s": measured_s, "step_not_measured_s": rider_s}


def simulate(events, cost, per_shape=2, unload_keeps=False, free_keeps=False, rider_cap=None):
    """Batches and their modelled seconds when the first `per_shape` launches of each shape are
    measured; a module unload or a free keeps the batch open when asked; with `rider_cap`, a batch
    is replayed once that many steps not measured follow its last measured launch."""
    seen = collections.Counter()
    out = {"sets": 0, "measured": 0, "steps_not_measured_in_passes": 0, "seconds": 0.0}
    batch = None  # [measured, steps, steps since the last measured one]

    def close():
        nonlocal batch
        if batch:
            m, steps, trailing = batch
            riders = steps - m - trailing
            out["sets"] += 1
            out["steps_not_measured_in_passes"] += riders
            out["seconds"] += (cost["set_s"] + m * cost["measured_launch_s"] +
                               riders * cost["step_not_measured_s"])
        batch = None

    def ride():
        if batch[1] >= BATCH:
            close()
            return
        batch[1] += 1
        batch[2] += 1
        if rider_cap and batch[2] >= rider_cap:
            close()

    for e in events:
        if e[0] == "L":
            measured = seen[e[1]] < per_shape
            seen[e[1]] += 1
            if measured:
                out["measured"] += 1
                if batch and (batch[0] >= BATCH or batch[1] >= BATCH):
                    close()
                batch = batch or [0, 0, 0]
                batch[0] += 1
                batch[1] += 1
                batch[2] = 0
            elif batch:
                ride()
        elif e[0] == "E" and batch:
            effect, call = e[1], e[2]
            if effect == 3 and not unload_keeps:
                close()
            elif effect == 2:
                if call.startswith(("cuMemcpy", "cuMemset")):
                    ride()
                elif call.startswith("cuMemFree") and free_keeps:
                    pass
                elif not call.startswith(("cuMemAlloc", "cuMemHostAlloc")):
                    close()
    close()
    out["seconds"] = round(out["seconds"], 2)
    return out


POLICIES = [
    ("the defaults as run: the first 2 launches of each shape", {}),
    ("the first launch of each shape only (--sample 1)", {"per_shape": 1}),
    ("module unloads keep the batch open", {"unload_keeps": True}),
    ("module unloads and frees keep the batch open", {"unload_keeps": True, "free_keeps": True}),
    ("a batch replayed once 32 steps not measured follow its last measured launch",
     {"rider_cap": 32}),
    ("all of these together, with the first launch of each shape only",
     {"per_shape": 1, "unload_keeps": True, "free_keeps": True, "rider_cap": 32}),
]


def report(path):
    events = load(path)
    cost = fit(events)
    batches = [e for e in events if e[0] == "C"]
    shapes = {e[1] for e in events if e[0] == "L"}
    ends = collections.Counter(e[4] for e in batches)
    return {
        "launches": sum(1 for e in events if e[0] == "L"),
        "shapes": len(shapes),
        "as_traced": {"sets": len(batches), "seconds": round(sum(e[3] for e in batches), 2),
                      "measured": sum(e[1] for e in batches), "ended_by": dict(ends)},
        "cost_model": {k: round(v, 5) for k, v in cost.items()},
        "policies": [{"policy": name, **simulate(events, cost, **kw)} for name, kw in POLICIES],
        "lower_bound_s": round(cost["set_s"] + len(shapes) * cost["measured_launch_s"], 2),
    }


def app_runs(w, rev):
    """batch-policy.sh's evidence record: per application, the 50-step wall times alone and
    profiled, the time of one measured step (after the warm-up) alone and profiled, the profiler
    time, the 1.5x budget left for profiling, and the trace's report."""
    apps = {}
    for trace in sorted(glob.glob(f"{w}/*.trace")):
        app = os.path.basename(trace)[:-len(".trace")]
        wall = {k: float(open(f"{w}/{app}.{k}.wall").read()) for k in ("alone", "profiled")}
        profile = json.load(open(f"{w}/{app}.json"))["profile"]
        step = {k: measured_step_ms(f"{w}/{app}.{k}.out") for k in ("alone", "profiled")}
        apps[app] = {"wall_s": wall, "ratio": round(wall["profiled"] / wall["alone"], 2),
                     "measured_step_ms": step,
                     "profiler_time_s": profile.get("profiler_time_s"),
                     "budget_at_1_5x_s": round(0.5 * wall["alone"], 2), **report(trace)}
    return record(
        "Batching and sampling policies replayed on traces of our three training applications "
        "(50 steps each under profile with the defaults, beside a run alone): each trace's batch "
        "seconds fitted as set + measured launches + steps not measured inside the passes, then "
        "the same launches and driver calls replayed under the first launch of each shape only, "
        "module unloads and frees that keep a batch open, and a cap of 32 steps not measured "
        "after a batch's last measured launch",
        "patch -p1 < validation/lab/replay-trace.patch; OUT=dir REV=rev "
        "validation/lab/batch-policy.sh", rev,
        device=open(f"{w}/device.txt").read().strip(), applications=apps)


if __name__ == "__main__":
    if len(sys.argv) == 2:
        print(json.dumps(report(sys.argv[1]), indent=1))
    elif len(sys.argv) == 3:
        print(json.dumps(app_runs(sys.argv[1], sys.argv[2]), indent=1))
    else:
        sys.exit("usage: batch_policy_sim.py TRACE | batch_policy_sim.py W REV")
