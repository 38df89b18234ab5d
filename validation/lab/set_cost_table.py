"""Prints roofkit-profiler-cost lines (JSON) as a table: passes, time per launch, start and stop
per pass (after the first call)."""
import json, sys
for line in open(sys.argv[1]):
    j = json.loads(line)
    if "error" in j:
        print(j["set"][:60], "error", j["error"]); continue
    t = j["stats_total"]; b = j["stats_after_first"]; n = j["launches"]
    per = lambda k: [round((x - (b[k][i] if i < len(b[k]) else 0)) * 1e3 / n, 2) for i, x in enumerate(t[k])]
    print(f'{j["set"][-90:]:90s} passes {j["passes"]} {j["wall_per_launch_s"]*1e3:6.1f} ms/launch'
          f' start {per("start_s_by_pass")} stop {per("stop_s_by_pass")} n={len(j["metrics"])}')
