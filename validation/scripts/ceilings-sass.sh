#!/usr/bin/env bash
# Prints the instruction mix of the ceiling microbenchmarks from the disassembly (cuobjdump
# -sass): per kernel the FMA and tensor instructions it must contain, and local-memory traffic
# (LDL/STL: register spills), which none may have. Exit 1 when a kernel misses its instruction
# or spills. Usage: validation/scripts/ceilings-sass.sh [binary]   (default build/ci/tools/roofline-cuda)
set -euo pipefail
bin=${1:-build/ci/tools/roofline-cuda}
if ! command -v cuobjdump >/dev/null; then
  echo "ceilings-sass: cuobjdump not found (add the CUDA toolkit's bin/ to PATH)" >&2
  exit 2
fi
[[ -f $bin ]] || { echo "ceilings-sass: no binary '$bin'" >&2; exit 2; }
demangle=cat
command -v c++filt >/dev/null && demangle=c++filt
cuobjdump -sass "$bin" | $demangle | python3 -c '
import re, sys
# kernel family (substring of the demangled name) -> instruction prefix that must be present
expect = [
    ("fma_kernel<double", "DFMA"), ("fma_kernel<float", "FFMA"),
    ("fma_kernel<__half2", "HFMA2"), ("fma_kernel<__nv_bfloat162", "HFMA2.BF16"),
    ("fma_kernel<__half2", "HFMA2.MMA"), ("fma_kernel<__nv_bfloat162", "HFMA2.MMA.BF16"),
    ("mma_kernel<(roofkit::ceiling_kernels::mma_type)0", "HMMA.16816.F32"),
    ("mma_kernel<(roofkit::ceiling_kernels::mma_type)1", "HMMA.16816.F32.BF16"),
    ("mma_kernel<(roofkit::ceiling_kernels::mma_type)2", "HMMA.1688.F32.TF32"),
    ("mma_kernel<(roofkit::ceiling_kernels::mma_type)3", "IMMA.16832"),
    ("mma_kernel<(roofkit::ceiling_kernels::mma_type)4", "DMMA.8x8x4"),
    ("mma_kernel<(roofkit::ceiling_kernels::mma_type)5", "DMMA"),
    ("wgmma_kernel<(roofkit::ceiling_kernels::wgmma_type)0", "HGMMA.64x256x16.F32"),
    ("wgmma_kernel<(roofkit::ceiling_kernels::wgmma_type)1", "HGMMA.64x256x16.F32.BF16"),
    ("wgmma_kernel<(roofkit::ceiling_kernels::wgmma_type)2", "HGMMA.64x256x8.F32.TF32"),
    ("wgmma_kernel<(roofkit::ceiling_kernels::wgmma_type)3", "QGMMA.64x256x32.F32.E4M3.E4M3"),
    ("wgmma_kernel<(roofkit::ceiling_kernels::wgmma_type)4", "IGMMA.64x256x32"),
    ("shared_read_kernel", "LDS.128"), ("sweep_kernel<", "LD"), ("stream_kernel<", "ST"),
]
watch = ("DFMA", "FFMA", "HFMA2", "HMMA", "IMMA", "DMMA", "HGMMA", "QGMMA", "IGMMA", "LDS", "LDG",
         "STG", "LDL", "STL")
kernels, name = {}, None
for line in sys.stdin:
    m = re.search(r"Function : (.*)$", line)
    if m:
        name = m.group(1).strip()
        kernels.setdefault(name, {})
        continue
    m = re.match(r"\s+/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.x]*)", line)
    if name and m:
        op = m.group(1)
        kernels[name][op] = kernels[name].get(op, 0) + 1
bad = 0
rows = []
for name, ops in sorted(kernels.items()):
    if "ceiling_kernels" not in name:
        continue
    short = re.sub(r"roofkit::ceiling_kernels::(\(anonymous namespace\)::)?", "", name)
    mix = {}
    for op, n in ops.items():
        for w in watch:
            if op == w or op.startswith(w + "."):
                mix[op] = mix.get(op, 0) + n
    need = [ins for key, ins in expect if key in name]
    missing = [ins for ins in need if not any(op.startswith(ins) for op in ops)]
    spills = sum(n for op, n in ops.items() if op.startswith(("LDL", "STL")))
    status = "ok"
    if missing or spills:
        status = "FAIL" + (" missing " + ",".join(missing) if missing else "") + \
                 (" spills %d" % spills if spills else "")
        bad += 1
    rows.append((short, status, " ".join("%s:%d" % kv for kv in sorted(mix.items()))))
for short, status, mix in rows:
    print("%-4s  %s\n      %s" % (status, short[:150], mix))
print("%d ceiling kernels, %d failing" % (len(rows), bad))
sys.exit(1 if bad or not rows else 0)
'
