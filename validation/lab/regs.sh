#!/usr/bin/env bash
# Where do ncu's launch__registers_per_thread and CU_FUNC_ATTRIBUTE_NUM_REGS part? Runs
# tests/apps/torch_ops.py under regs_activity.cpp (CUPTI's activity record beside the launched
# function's attribute, per launch) and under `ncu --metrics launch__registers_per_thread`, and
# lists the register counts cuobjdump gives every copy of the kernels that differ in libtorch.
# Writes $OUT (default out/regs): activity.txt, ncu.csv, cuobjdump.txt.
set -uo pipefail
cd "$(dirname "$0")"
OUT="$(mkdir -p "${OUT:-../../out/regs}" && cd "${OUT:-../../out/regs}" && pwd)"
CUDA=/usr/local/cuda
g++ -shared -fPIC -O2 -o "$OUT/libregs_activity.so" regs_activity.cpp -I"$CUDA/include" \
  -L"$CUDA/extras/CUPTI/lib64" -L"$CUDA/lib64" -lcupti -lcuda || exit 1
CAP="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')"
nvcc -O2 -arch="sm_${CAP:-90}" -o "$OUT/regs_abi" regs_abi.cu || exit 1
CUOBJDUMP="$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)"
"$CUOBJDUMP" -res-usage "$OUT/regs_abi" | grep -A1 Function >"$OUT/regs_abi.res.txt"
CUDA_INJECTION64_PATH="$OUT/libregs_activity.so" "$OUT/regs_abi" 2>&1 | grep -v '^$' \
  >"$OUT/regs_abi.txt"
rm -f "$OUT/regs_abi"
app=../../tests/apps/torch_ops.py
CUDA_INJECTION64_PATH="$OUT/libregs_activity.so" timeout 200 python3 "$app" \
  >/dev/null 2>"$OUT/activity.err"
grep '^regs ' "$OUT/activity.err" >"$OUT/activity.txt"
timeout 200 ncu --metrics launch__registers_per_thread --csv --print-units base \
  --print-kernel-base mangled python3 "$app" >"$OUT/ncu.csv" 2>"$OUT/ncu.err"
lib="$(python3 -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')"
for so in "$lib"/libtorch_cuda.so; do
  timeout 300 "$CUOBJDUMP" -arch sm_90 -res-usage "$so" 2>/dev/null |
    grep -A1 -E 'FillFunctorIfE|direct_copy_kernel_cuda|nll_loss_(forward|backward)_reduce' |
    grep -E 'Function|REG' >"$OUT/cuobjdump.txt"
done
rm -f "$OUT/libregs_activity.so"
python3 - "$OUT" "${REV:-unknown}" <<'PY'
import collections, csv, datetime, io, json, re, subprocess, sys
out, rev = sys.argv[1], sys.argv[2]
def pairs(path):
    rows = [re.match(r"regs activity=(\d+) attribute=(-?\d+) name=(\S+)", l) for l in open(path)]
    return [(int(m[2]), int(m[1]), m[3]) for m in rows if m]
abi = {name: {"attribute": a, "activity": b} for a, b, name in pairs(f"{out}/regs_abi.txt")}
torch = collections.Counter((a, b) for a, b, _ in pairs(f"{out}/activity.txt"))
text = open(f"{out}/ncu.csv").read()
ncu = [r for r in csv.DictReader(io.StringIO(text[text.find('"ID"'):]))
       if r["Metric Name"] == "launch__registers_per_thread"]
act = [b for _, b, _ in pairs(f"{out}/activity.txt")]
gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                     capture_output=True, text=True).stdout.strip().splitlines()[0]
doc = {"schema": "roofkit.validation/1",
       "what": "registers per thread: the compiled count (CU_FUNC_ATTRIBUTE_NUM_REGS) against "
               "CUPTI's kernel activity record and ncu's launch__registers_per_thread",
       "command": "REV=rev validation/lab/regs.sh", "device": gpu, "git_revision": rev,
       "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
       "kernels_of_regs_abi_cu": abi,
       "torch_ops_launches_by_attribute_and_activity":
           [{"attribute": a, "activity": b, "launches": n} for (a, b), n in sorted(torch.items())],
       "torch_ops_activity_equals_ncu_launch_by_launch":
           len(act) == len(ncu) and all(int(float(r["Metric Value"])) == v
                                        for r, v in zip(ncu, act)),
       "torch_ops_launches": {"activity": len(act), "ncu": len(ncu)}}
json.dump(doc, open(f"{out}/registers.json", "w"), indent=1)
print(json.dumps(doc, indent=1)[:1500])
PY
awk '{ print $2, $3 }' "$OUT/activity.txt" | sort | uniq -c
wc -l "$OUT/cuobjdump.txt"
