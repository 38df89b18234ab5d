#!/usr/bin/env python3
"""The table of validation/lab/carveout.sh: per cache-configuration setting, the shared-memory
configuration ncu reports and, per kernel, the DRAM writes under roofkit and ncu and roofkit's
L2-to-SM cycles. Usage: carveout_json.py OUT_DIR > table.json"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from ncu_csv import num, rows  # noqa: E402

NAMES = ["registers/31-regs", "registers/two-more-vars", "registers/maxnreg-32",
         "registers/maxnreg-33", "registers/spill", "cliff/fold-cap"]


def main():
    out = sys.argv[1]
    table = {}
    for cfg in ("default", "L1", "shared"):
        ncu = [num(x["Metric Value"]) / 1e6
               for x in rows(os.path.join(out, f"ncu-{cfg}.csv"))
               if x.get("Metric Name") == "dram__bytes_write.sum" and "sweep" not in x["Kernel Name"]]
        sizes = sorted({x["Metric Value"] for x in rows(os.path.join(out, f"ncu-launch-{cfg}.csv"))
                        if x.get("Metric Name") == "Shared Memory Configuration Size"})
        ours = {k["name"]: k["launches"][0]
                for k in json.load(open(os.path.join(out, f"ours-{cfg}.json")))["kernels"]}
        table[cfg] = {
            "ncu_shared_memory_configuration_bytes": sizes,
            "kernels": [{"kernel": n,
                         "roofkit_write_mb": round(ours[n]["dram__bytes_write.sum"] / 1e6, 3),
                         "roofkit_l2_to_sm_mcycles":
                             round(ours[n]["lts__lts2xbar_cycles_active.sum"] / 1e6, 3),
                         "ncu_write_mb": round(ncu[i], 3) if i < len(ncu) else None}
                        for i, n in enumerate(NAMES) if n in ours]}
    print(json.dumps(table, indent=1))


if __name__ == "__main__":
    main()
