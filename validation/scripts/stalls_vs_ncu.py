"""roofkit's warp-stall samples (profile --stalls) beside Nsight Compute's warp-state statistics
(--section WarpStateStats, raw page), per kernel; see stalls-check.sh. ncu's figure per reason
is smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio (cycles stalled per issued
instruction), summed over a kernel's launches weighted by duration; roofkit's is its share of
the kernel's stall samples. Both are ranked, "selected" (the issuing warp) included; ncu's
"no_instruction" is CUPTI's "no_instructions". A kernel's top reason is compared when it has at
least MIN_SAMPLES samples (fewer are noise: a 10-microsecond kernel gets a handful).
Usage: stalls_vs_ncu.py WORKDIR OUTDIR REVISION DEVICE"""
import csv
import datetime
import io
import json
import re
import sys

PREFIX = "roofkit__stall__"
MIN_SAMPLES = 1000
NCU_REASON = re.compile(r"^smsp__average_warps_issue_stalled_([a-z_]+)_per_issue_active\.ratio$")


def ncu_stalls(text):
    """{mangled name: {reason: duration-weighted cycles per issued instruction}}."""
    rows = list(csv.reader(io.StringIO(text[text.find('"ID"'):])))
    if len(rows) < 3:
        return {}
    head, body = rows[0], rows[2:]  # row 1: units
    name_col = head.index("Kernel Name")
    time_col = head.index("gpu__time_duration.sum") if "gpu__time_duration.sum" in head else None
    out = {}
    for r in body:
        w = float(r[time_col].replace(",", "")) if time_col is not None else 1.0
        reasons = out.setdefault(r[name_col], {})
        for i, h in enumerate(head):
            m = NCU_REASON.match(h)
            if m and m.group(1) != "not_issued" and r[i] not in ("", "n/a"):
                reason = "no_instructions" if m.group(1) == "no_instruction" else m.group(1)
                reasons[reason] = reasons.get(reason, 0) + w * float(r[i].replace(",", ""))
    return out


def ranked(d, n=3):
    total = sum(d.values()) or 1
    return [[k, round(v / total, 3)] for k, v in sorted(d.items(), key=lambda kv: -kv[1])[:n]]


def main():
    w, out, rev, device = sys.argv[1:5]
    steps = {}
    for line in open(f"{w}/steps.txt"):
        name, rc, s = line.split()
        steps[name] = {"rc": int(rc), "s": float(s)}
    rows, agree, compared = [], 0, 0
    for app in ("stalls", "fft_blas_thrust"):
        run = json.load(open(f"{w}/{app}.json"))
        theirs = ncu_stalls(open(f"{w}/{app}.ncu.out").read())
        for k in run["kernels"]:
            ours = {n[len(PREFIX):]: v for n, v in k.get("counters", {}).items()
                    if n.startswith(PREFIX)}
            if "diagnosis" not in k or not ours:
                continue
            ncu = theirs.get(k["mangled_name"]) or {}
            ours_top = ranked(ours)
            ncu_top = ranked(ncu)
            samples = sum(ours.values())
            same = bool(ours_top and ncu_top and ours_top[0][0] == ncu_top[0][0])
            if ncu_top and samples >= MIN_SAMPLES:
                compared += 1
                agree += same
            rows.append({"app": app, "kernel": k["display_name"],
                         "share": k["counters"].get("roofkit__app_gpu_time_share"),
                         "samples": samples,
                         "roofkit_top_stalls": ours_top, "ncu_top_stalls": ncu_top,
                         "same_top_reason": same, "limiter": k["diagnosis"]["limiter"],
                         "verdict": k["diagnosis"]["verdict"]})
    doc = {"schema": "roofkit.validation/1",
           "what": "profile --stalls (CUPTI PC sampling in a second run) against ncu's warp-state "
                   "statistics on the same applications: top stall reasons per kernel, the "
                   "diagnosis they give, and the cost of the second run",
           "command": "OUT=... REV=... validation/scripts/stalls-check.sh BUILD",
           "device": device, "revision": rev,
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
           "results": {"min_samples": MIN_SAMPLES, "kernels_compared": compared, "same_top_reason": agree,
                       "steps": steps, "rows": rows}}
    slug = "h100" if "H100" in device else "h200" if "H200" in device else "gpu"
    json.dump(doc, open(f"{out}/stalls-vs-ncu-{slug}.json", "w"), indent=1)
    print(f"stalls-vs-ncu: {agree} of {compared} kernels (>= {MIN_SAMPLES} samples) with ncu's "
          "top stall reason")
    return 0 if rows else 1


if __name__ == "__main__":
    sys.exit(main())
