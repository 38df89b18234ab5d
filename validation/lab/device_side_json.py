#!/usr/bin/env python3
"""validation/lab/device-side.sh's results as JSON: per case, the application plain, under
roofline-cuda profile and under ncu (exit code, lines the device's printf gave, result line,
stdout the same as plain), and which launches profile profiled.
Usage: device_side_json.py OUT_DIR SUMMARY_TXT "COMMAND" > out.json"""
import glob
import json
import os
import re
import sys


def read(path):
    return open(path, errors="replace").read() if os.path.exists(path) else None


def outcome(text, rc):
    if text is None:
        return None
    result = [l for l in text.splitlines() if l.startswith("device_side: ") and "hello" not in l]
    return {"exit_code": rc, "printf_lines": text.count("hello from block"),
            "result": result[-1] if result else ""}


def main():
    out_dir, summary_txt, command = sys.argv[1], sys.argv[2], sys.argv[3]
    codes = {}
    case = None
    for line in open(summary_txt):
        m = re.match(r"\[(\S+)\] plain rc=(\d+)", line)
        if m:
            case = m.group(1)
            codes[(case, "plain")] = int(m.group(2))
        m = re.match(r"\s+(profile|ncu) rc=(\d+)", line)
        if m and case:
            codes[(case, m.group(1))] = int(m.group(2))
    cases, context = [], {}
    for path in sorted(glob.glob(os.path.join(out_dir, "*.plain.out"))):
        name = os.path.basename(path)[: -len(".plain.out")]
        plain = read(path)
        prof = read(os.path.join(out_dir, f"{name}.profile.out"))
        row = {"case": name, "plain": outcome(plain, codes.get((name, "plain"))),
               "profile": outcome(prof, codes.get((name, "profile")))}
        row["profile"]["stdout_same_as_plain"] = prof == plain
        run_path = os.path.join(out_dir, f"{name}.json")
        if os.path.exists(run_path):
            run = json.load(open(run_path))
            p = run["profile"]
            context = context or run.get("context", {})
            words = p["app"]["command"].split()
            app = next(i for i, w in enumerate(words) if w.endswith("roofkit_app_device_side"))
            row["args"] = words[app + 1:]
            row["profile"]["options"] = {k: v for k, v in p["options"].items()
                                         if k in ("kernel", "launch_skip", "profile_from_start")}
            row["profile"]["profiled"] = [l["name"].split("(")[0] for l in p["launches"]]
            row["profile"]["total_launches"] = p["total_launches"]
            row["profile"]["not_profiled"] = p["not_profiled"]
        ncu = read(os.path.join(out_dir, f"{name}.ncu.out"))
        if ncu is not None:
            row["ncu"] = outcome(ncu, codes.get((name, "ncu")))
        cases.append(row)
    print(json.dumps({
        "schema": "roofkit.validation/1",
        "what": "tests/apps/device_side.cu (device printf, the device heap, device-side launches, "
                "module globals, a CUDA array written through a surface, a cudaProfilerStart/Stop "
                "region; every kernel in place, results checked) plain, "
                "under roofline-cuda profile and under ncu --cache-control all, case by case; "
                "cases named *-eager ran with CUDA_MODULE_LOADING=EAGER, the others lazy (the "
                "default)",
        "command": command,
        "device": context.get("device", ""),
        "cuda_driver": context.get("driver", ""),
        "git_revision": context.get("git_revision", ""),
        "date": context.get("date", ""),
        "cases": cases,
    }, indent=1))


if __name__ == "__main__":
    main()
