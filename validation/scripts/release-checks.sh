#!/usr/bin/env bash
# The GPU checks behind this release's claims, after a build (scripts/gpu-check.sh tests):
#   roofs     measured roofs by default: the first bench measures the quick ceilings and caches
#             them, the second reads the cache; ceilings --quick's exit code and any rejection;
#             a machine file of another GPU refused (exit 2) and accepted with --ceilings-any-gpu
#   exits     profile's exit codes: no GPU visible (3), launches selected but none profiled (4)
#   skip      a GPU test run where the tests skip (no GPU visible) fails the skip check
#   fallback  the driver's L2 flush turned off: the run and stderr say the sweep was used and why
#   sampling  a training step of our own (TRAIN_APP, default validation/apps/train_step.py; 50
#             steps) alone and under `profile` with the defaults (per-shape sampling), three times
#             in turn (the ratio of the median wall times), and 5 steps
#             with --sample all: wall times, launches timed, shapes measured, time shares against
#             the all run
#   everyncu  one step of TRAIN_APP with every launch profiled against ncu, each ncu run
#             bounded by NCU_LIMIT_S seconds (default 260; the launches it finished are compared):
#             counts equal, DRAM bytes against ncu's one-pass values, against ncu's own second
#             run and against two more with the step's memory moved (another process holding
#             1 or 5 GiB first), time per launch
#   nvtx      --nvtx-scope process and thread on a two-thread program (tests/apps/nvtx_threads)
#   longrun   validation/scripts/long-run.sh (100,000 launches: memory, overhead per launch)
#   replay    validation/scripts/replay-cost.sh on torch_ops.py: where replay time goes
#   quickstart  scripts/run.sh from a copy of the tree without a build: the GPU quick start
#   planted   bugs planted in copies of the tree and built there (a timer that under-measures by
#             20%; a cluster bound too tight; a replay charged to every launch of its batch):
#             `ceilings` must reject the timer's measurements (exit 1), and each GPU test that
#             exists to catch one must fail, and pass in the unplanted build
# Each stage writes one evidence file under $OUT (roofkit.validation/1, with command, device,
# revision). TRAIN_APP (sampling, everyncu): validation/apps/train_step.py, gpt_train.py or
# resnet_train.py; the evidence of the last two is named after them (sampling-gpt-train-GPU.json).
# Usage: OUT=dir REV=revision [TRAIN_APP=script] validation/scripts/release-checks.sh BUILD_DIR [stages]
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
BUILD="${1:?usage: OUT=dir REV=rev validation/scripts/release-checks.sh BUILD_DIR [stages]}"
shift
stages="${*:-roofs exits skip fallback}"
OUT="$(mkdir -p "${OUT:-out/release-checks}" && cd "${OUT:-out/release-checks}" && pwd)"
REV="${REV:-unknown}"
RC="$BUILD/tools/roofline-cuda"
W="$(mktemp -d)"
gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | awk '{print tolower($2)}')"
now() { date +%s.%N; }
# check NAME EXPECTED_RC CMD...: runs CMD, appends {name, expected_rc, rc, seconds, stderr tail}.
check() {
  local name=$1 want=$2
  shift 2
  local a b rc
  a=$(now)
  "$@" >"$W/$name.out" 2>"$W/$name.err"
  rc=$?
  b=$(now)
  python3 - "$name" "$want" "$rc" "$a" "$b" "$W/$name.err" "$*" >>"$W/results.jsonl" <<'PY'
import json, sys
name, want, rc, a, b, err, cmd = sys.argv[1:]
lines = open(err, errors="replace").read().splitlines()
print(json.dumps({"check": name, "command": cmd, "expected_rc": int(want), "rc": int(rc),
                  "ok": int(want) == int(rc), "seconds": round(float(b) - float(a), 2),
                  "stderr": lines[-6:]}))
PY
  echo "release-checks: $name rc=$rc (expected $want) in $(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.1f", b-a}') s"
}
# hold_device_memory MIB: another process holds MIB MiB of device memory until
# release_device_memory, so that what runs meanwhile gets other physical pages.
hold_device_memory() {
  python3 -c 'import sys, time, torch
x = torch.empty(int(sys.argv[1]) << 20, dtype=torch.uint8, device="cuda")
torch.cuda.synchronize()
print("held", flush=True)
time.sleep(1200)' "$1" >"$W/hold.out" 2>&1 &
  holder=$!
  for _ in $(seq 120); do grep -q held "$W/hold.out" && return 0; sleep 0.5; done
  echo "release-checks: the memory holder did not start" >&2
}
release_device_memory() { kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null; }
record() { # record FILE WHAT COMMAND: wraps results.jsonl into FILE and starts a new one
  python3 -c 'import json,sys; print(json.dumps([json.loads(l) for l in open(sys.argv[1])]))' \
    "$W/results.jsonl" >"$W/results.json"
  python3 validation/scripts/evidence_record.py "$OUT/$1" "$2" "$3" "$REV" "$W/results.json"
  : >"$W/results.jsonl"
}
: >"$W/results.jsonl"
app="$BUILD/tests/apps/roofkit_app_features"
TRAIN_APP="${TRAIN_APP:-validation/apps/train_step.py}"
case "$(basename "$TRAIN_APP")" in
  train_step.py) train_tag=train-step train_what="our MLP-Mixer training step" every_tag="" ;;
  gpt_train.py)
    train_tag=gpt-train every_tag=-gpt-train
    train_what="our GPT training loop (DataLoader workers, pin-memory thread, SDPA attention, fp16 autocast with a GradScaler, foreach AdamW, EMA on a second stream)" ;;
  resnet_train.py)
    train_tag=resnet-train every_tag=-resnet-train
    train_what="our ResNet-50 training step (cuDNN convolutions chosen by benchmark, batch norms in training mode, channels_last, fp16 autocast with a GradScaler, SGD with Nesterov momentum)" ;;
  *) echo "release-checks: TRAIN_APP must be validation/apps/train_step.py, gpt_train.py or resnet_train.py" >&2
     exit 2 ;;
esac
[ -x "$app" ] || app="$(find "$BUILD/tests/apps" -maxdepth 1 -type f -executable | head -1)"

if [[ " $stages " == *" roofs "* ]]; then
  export XDG_CACHE_HOME="$W/cache"
  k=(--kernel '^global/coalesced$' --reps 3)
  check first_bench_measures 0 "$RC" bench "${k[@]}" -o "$W/b1.json"
  check second_bench_from_cache 0 "$RC" bench "${k[@]}" -o "$W/b2.json"
  grep -h '"roofs"' "$W/b1.json" "$W/b2.json" >"$W/roofs-lines.txt" 2>&1
  check theoretical_roofs 0 "$RC" bench "${k[@]}" --ceilings theoretical -o "$W/b0.json"
  check quick_ceilings 0 "$RC" ceilings --quick --save "$W/machine.json"
  check other_gpu_file_refused 2 "$RC" bench "${k[@]}" --ceilings tests/data/machine/ceilings-a100.json
  check other_gpu_file_insisted 0 "$RC" bench "${k[@]}" \
    --ceilings tests/data/machine/ceilings-a100.json --ceilings-any-gpu
  ls "$XDG_CACHE_HOME/roofkit" >"$W/cache-files.txt" 2>&1
  python3 - "$W" >>"$W/results.jsonl" <<'PY'
import json, sys, glob
w = sys.argv[1]
def roofs(p):
    try:
        c = json.load(open(p))["context"]
        return c.get("roofs") or c.get("extra", {}).get("roofs")
    except Exception as e: return f"unreadable: {e}"
print(json.dumps({"check": "roofs_recorded", "first": roofs(w + "/b1.json"),
                  "second": roofs(w + "/b2.json"), "theoretical": roofs(w + "/b0.json"),
                  "cache_files": open(w + "/cache-files.txt").read().split()}))
PY
  cp "$W/machine.json" "$OUT/ceilings-quick-$gpu.json" 2>/dev/null
  record "roofs-default-$gpu.json" "Measured roofs by default: the first bench measures the quick ceilings (time), the second reads the per-GPU cache; theoretical on request; another GPU's machine file refused (exit 2) unless --ceilings-any-gpu; ceilings --quick exit code" \
    "OUT=... REV=... validation/scripts/release-checks.sh BUILD roofs"
  unset XDG_CACHE_HOME
fi

if [[ " $stages " == *" exits "* ]]; then
  check profile_no_gpu 3 env CUDA_VISIBLE_DEVICES= "$RC" profile -o "$W/none.json" -- "$app"
  check profile_none_profiled 4 "$RC" profile --kernel 'no_kernel_has_this_name' \
    -o "$W/none2.json" -- "$app"
  check profile_ok 0 "$RC" profile -o "$W/ok.json" -- "$app"
  python3 - "$W" >>"$W/results.jsonl" <<'PY'
import json, os, sys
w = sys.argv[1]
print(json.dumps({"check": "no_run_written", "no_gpu_run_exists": os.path.exists(w + "/none.json"),
                  "none_profiled_run_exists": os.path.exists(w + "/none2.json")}))
PY
  record "profile-exit-codes-$gpu.json" "profile's exit codes on a GPU machine: 3 with no GPU visible (no run written), 4 when launches were selected but none profiled (no run written), 0 otherwise" \
    "OUT=... REV=... validation/scripts/release-checks.sh BUILD exits"
fi

if [[ " $stages " == *" skip "* ]]; then
  CUDA_VISIBLE_DEVICES= ctest --test-dir "$BUILD" -L gpu -R 'timing|ceilings_limits' \
    --output-junit "$W/planted.xml" >"$W/planted.log" 2>&1
  echo "ctest rc=$? ($(grep -E 'tests passed|tests failed' "$W/planted.log"))" >"$W/planted.txt"
  check planted_skip_fails 1 python3 scripts/junit-skips.py "$W/planted.xml"
  record "gpu-check-planted-skip-$gpu.json" "A GPU test run whose tests all skip (CUDA_VISIBLE_DEVICES empty) fails the skip check that gpu-check.sh applies (scripts/junit-skips.py exits 1)" \
    "OUT=... REV=... validation/scripts/release-checks.sh BUILD skip"
fi

# planted_copy DIR FILE SED_EXPR [FILE SED_EXPR...]: the tree copied to DIR with each edit applied
# (each must change its file: the count of "planted" lines goes to DIR.count), then configured
planted_copy() {
  local dir=$1
  shift
  mkdir -p "$dir"
  tar -C . --exclude=./build --exclude=./out --exclude=./.git -cf - . | tar -C "$dir" -xf -
  : >"$dir.count"
  while (($#)); do
    sed -i "$2" "$dir/$1"
    echo "$1: $(grep -c 'planted' "$dir/$1")" >>"$dir.count"
    shift 2
  done
  source scripts/cuda-env.sh
  cmake -S "$dir" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" \
    -DROOFKIT_BUILD_EXAMPLES=OFF -DROOFKIT_BUILD_BENCHMARKS=OFF >"$dir.configure.log" 2>&1
}
if [[ " $stages " == *" planted "* ]]; then
  # 1. The timer under-measures by 20%.
  P="$W/planted"
  planted_copy "$P" lib/src/timing/timing.cpp \
    's|^    return ms \* 1e-3;$|    return ms * 1e-3 * 0.8; // planted: the timer under-measures|'
  check planted_build 0 cmake --build "$P/build" --target roofline-cuda roofkit_gpu_tests -j "$(nproc)"
  PT="$P/build/tests/roofkit_gpu_tests"
  check planted_ceilings_rejected 1 "$P/build/tools/roofline-cuda" ceilings --quick \
    --save "$W/planted-machine.json"
  check planted_timing_test_fails 1 "$PT" --gtest_filter='timing_gpu.streaming_read_runs_at_hbm_speed'
  check planted_ceilings_tests_fail 1 "$PT" --gtest_filter='ceilings_gpu.*'
  # 2. The cluster bound a quarter of what it is; each launch charged its whole batch's replay.
  Q="$W/planted2"
  planted_copy "$Q" lib/src/occupancy/suggest.cpp \
    's|sm_count / size) : 0;$|sm_count / size / 4) : 0; // planted: too tight|' \
    lib/inject/injector.cpp \
    's|= b.launches\[i\].capture_s + share;$|= b.launches[i].capture_s + share * static_cast<double>(b.launches.size()); // planted|'
  check planted2_build 0 cmake --build "$Q/build" --target roofkit_gpu_tests -j "$(nproc)"
  QT="$Q/build/tests/roofkit_gpu_tests"
  check planted_cluster_bound_test_fails 1 "$QT" \
    --gtest_filter='occupancy_runtime.cluster_bound_is_an_upper_bound'
  check planted_overhead_test_fails 1 "$QT" \
    --gtest_filter='profile_app.the_launches_overhead_adds_up_to_less_than_the_wall_time'
  check unplanted_tests_pass 0 "$BUILD/tests/roofkit_gpu_tests" \
    --gtest_filter='timing_gpu.streaming_read_runs_at_hbm_speed:ceilings_gpu.*:occupancy_runtime.cluster_bound_is_an_upper_bound:profile_app.the_launches_overhead_adds_up_to_less_than_the_wall_time'
  python3 - "$W" >>"$W/results.jsonl" <<'PY'
import json, sys
w = sys.argv[1]
def lines(name, keys):
    out = []
    for ext in ("out", "err"):
        try:
            out += [l for l in open(f"{w}/{name}.{ext}", errors="replace").read().splitlines()
                    if any(k in l for k in keys)]
        except OSError:
            pass
    return out[:20]
fails = ["FAILED", "Failure", "Expected", "Which is", "exceeds"]
print(json.dumps({"check": "what_failed_and_why",
                  "plants_applied": open(w + "/planted.count").read().splitlines()
                  + open(w + "/planted2.count").read().splitlines(),
                  "ceilings": lines("planted_ceilings_rejected", ["error", "rejected", "fail"]),
                  "timing_test": lines("planted_timing_test_fails", fails + ["TB/s"]),
                  "ceilings_tests": lines("planted_ceilings_tests_fail", fails),
                  "cluster_bound_test": lines("planted_cluster_bound_test_fails", fails),
                  "overhead_test": lines("planted_overhead_test_fails", fails),
                  "unplanted": lines("unplanted_tests_pass", ["PASSED", "FAILED", "OK ]"])}))
PY
  record "planted-bugs-$gpu.json" "Bugs planted in copies of the tree and built there, each watched failing what exists to catch it: (1) a timer that under-measures by 20% (CUDA-event seconds x 0.8 in lib/src/timing/timing.cpp): ceilings rejects its measurements as above the hardware (exit 1), and the timing and ceilings GPU tests fail; (2) a cluster bound a quarter of its value (lib/src/occupancy/suggest.cpp) and each profiled launch charged its whole batch's replay (lib/inject/injector.cpp): the cluster-bound and overhead GPU tests fail. The same tests pass in the unplanted build" \
    "OUT=... REV=... validation/scripts/release-checks.sh BUILD planted"
fi

if [[ " $stages " == *" fallback "* ]]; then
  check flush_default 0 "$RC" profile -o "$W/flush-default.json" -- "$app"
  check flush_off 0 env ROOFKIT_DRIVER_FLUSH=off "$RC" profile -o "$W/flush-off.json" -- "$app"
  python3 - "$W" >>"$W/results.jsonl" <<'PY'
import json, sys
w = sys.argv[1]
def ctx(p):
    try:
        c = json.load(open(p))["context"]
        return {k: v for k, v in c.items() if "cache" in k or "flush" in k or k in ("notes", "extra")}
    except Exception as e: return f"unreadable: {e}"
print(json.dumps({"check": "cache_control_in_run", "default": ctx(w + "/flush-default.json"),
                  "driver_flush_off": ctx(w + "/flush-off.json")}))
PY
  record "driver-flush-fallback-$gpu.json" "The driver's L2 flush and its fallback: by default the run records the method used; with the driver flush refused (ROOFKIT_DRIVER_FLUSH=off) the L2 sweep is used, with the reason on one stderr line and in the run" \
    "OUT=... REV=... validation/scripts/release-checks.sh BUILD fallback"
fi
if [[ " $stages " == *" sampling "* ]]; then
  ts="$TRAIN_APP"
  # Untimed: the first Python process of a fresh machine reads PyTorch from disk (15.0 s against
  # 9.2 s for the next, H200), which would flatter the ratio to the profiled run.
  python3 "$ts" --steps 1 >/dev/null 2>&1
  # Timed apart: the first `profile` on a GPU measures the quick ceilings and caches them (once
  # per GPU, driver and clocks), which the 50-step ratio below is not about.
  check first_profile_measures_roofs 0 "$RC" profile -q -o "$W/roofs-first.json" -- \
    python3 "$ts" --steps 1
  # Three pairs, alone and profiled in turn: the loop's own wall time moves by seconds from run
  # to run (its data-loader processes), so the ratio is of the medians. The middle profiled
  # run's file is the one compared with --sample all below.
  for i in 1 2 3; do
    check "train_alone_$i" 0 python3 "$ts" --steps 50
    check "train_profiled_default_$i" 0 "$RC" profile -q -o "$W/s-default-$i.json" -- \
      python3 "$ts" --steps 50
  done
  cp "$W/s-default-2.json" "$W/s-default.json"
  check train5_alone 0 python3 "$ts" --steps 5
  check train5_profiled_default 0 "$RC" profile -q -o "$W/s5-default.json" -- \
    python3 "$ts" --steps 5
  check train5_sample_all 0 "$RC" profile -q --sample all -o "$W/s-all.json" -- \
    python3 "$ts" --steps 5
  python3 - "$W" >>"$W/results.jsonl" <<'PY'
import json, sys
w = sys.argv[1]
def prof(p):
    try: return json.load(open(p))["profile"]
    except Exception as e: return {"error": str(e)}
d, a, d5 = prof(w + "/s-default.json"), prof(w + "/s-all.json"), prof(w + "/s5-default.json")
def shares(p): return {k["name"]: k.get("gpu_time_share", 0) for k in p.get("kernels", [])}
def max_diff(x, y):
    sx, sy = shares(x), shares(y)
    return max((abs(sx.get(n, 0) - sy.get(n, 0)) for n in set(sx) | set(sy)), default=None)
names = set(shares(d)) | set(shares(a))
diff = max_diff(d5, a)
diff50 = max_diff(d, a)
shapes = d.get("shapes", [])
keys = ("total_launches", "profiled_launches", "inferred_launches", "profile_overhead_s")
runs = [json.loads(l) for l in open(w + "/results.jsonl")]
def walls(prefix): return [r["seconds"] for r in runs if r["check"].startswith(prefix)]
alone, profiled = walls("train_alone_"), walls("train_profiled_default_")
med = lambda v: sorted(v)[len(v) // 2] if v else None
print(json.dumps({"check": "wall_ratio_50_steps", "alone_s": alone, "profiled_s": profiled,
                  "alone_median_s": med(alone), "profiled_median_s": med(profiled),
                  "ratio_of_medians": round(med(profiled) / med(alone), 3) if alone and profiled else None,
                  "ratio_per_pair": [round(p / a, 3) for a, p in zip(alone, profiled)]}))
print(json.dumps({"check": "sampling_vs_all",
                  "default_run": {k: d.get(k) for k in keys},
                  "all_run": {k: a.get(k) for k in keys},
                  "shapes": len(shapes),
                  "shapes_without_a_measured_launch": sum(1 for s in shapes if not s.get("measured")),
                  "kernels": len(names),
                  "max_time_share_difference_pp_same_5_steps": None if diff is None else round(100 * diff, 3),
                  "max_time_share_difference_pp_50_default_vs_5_all": None if diff50 is None else round(100 * diff50, 3)}))
PY
  record "sampling-$train_tag-$gpu.json" "Per-shape sampling on $train_what: 50 steps under profile with the defaults against the application alone (wall: three pairs in turn, the ratio of the medians), 5 steps with the defaults and with --sample all (wall, overhead), every launch timed, every shape measured, the largest per-kernel time-share difference between the default and the all run of the same 5 steps" \
    "OUT=... REV=... TRAIN_APP=$TRAIN_APP validation/scripts/release-checks.sh BUILD sampling"
fi

if [[ " $stages " == *" everyncu "* ]]; then
  # One training step with every launch profiled (--sample all; warm-up steps outside
  # cudaProfilerStart), then ncu on the same step with our counter names, and twice with the two
  # DRAM metrics alone (its one-pass values, and their own run-to-run spread).
  one=(python3 "$TRAIN_APP" --steps 1)
  check every_profiled 0 "$RC" profile -q --sample all --profile-from-start off \
    --records "$W/every.records.jsonl" -o "$W/every.json" -- "${one[@]}"
  ncu_line=(timeout "${NCU_LIMIT_S:-260}" ncu --profile-from-start off --cache-control all --clock-control none --csv --page raw
    --print-units base)
  check every_ncu 0 "${ncu_line[@]}" --metrics \
    "$(python3 validation/scripts/ncu_csv.py metrics "$W/every.records.jsonl")" "${one[@]}"
  for i in 1 2; do
    check "every_ncu_dram$i" 0 "${ncu_line[@]}" --metrics dram__bytes_read.sum,dram__bytes_write.sum \
      "${one[@]}"
  done
  # The same one-pass runs with the application's memory moved: another process holds 1 GiB or
  # 5 GiB of device memory first, so the step's buffers land on other physical pages.
  for mib in 1026 5126; do
    hold_device_memory "$mib"
    check "every_ncu_dram_moved$mib" 0 "${ncu_line[@]}" \
      --metrics dram__bytes_read.sum,dram__bytes_write.sum "${one[@]}"
    release_device_memory
  done
  python3 validation/scripts/every_launch_vs_ncu.py "$W" >>"$W/results.jsonl"
  record "every-launch-vs-ncu$every_tag-$gpu.json" "One step of $train_what with every launch profiled (--sample all): profiler time per launch, every count against ncu with our counter names, DRAM read and write bytes against ncu's one-pass DRAM values (within 1% or 64 KiB) beside ncu's second run against its first and two more ncu runs with the step's memory moved to other physical pages (another process holding 1 or 5 GiB first)" \
    "OUT=... REV=... TRAIN_APP=$TRAIN_APP validation/scripts/release-checks.sh BUILD everyncu"
fi

if [[ " $stages " == *" nvtx "* ]]; then
  nt="$BUILD/tests/apps/roofkit_app_nvtx_threads"
  check scope_process 0 "$RC" profile -q --nvtx step --nvtx-scope process -o "$W/np.json" -- "$nt"
  check scope_thread 0 "$RC" profile -q --nvtx step --nvtx-scope thread -o "$W/nt.json" -- "$nt"
  python3 - "$W" >>"$W/results.jsonl" <<'PY'
import json, sys
w = sys.argv[1]
def counts(p):
    try: return {k["name"]: k.get("profiled") for k in json.load(open(p))["profile"]["kernels"]}
    except Exception as e: return {"error": str(e)}
print(json.dumps({"check": "launches_selected", "process": counts(w + "/np.json"),
                  "thread": counts(w + "/nt.json")}))
PY
  record "nvtx-scope-$gpu.json" "NVTX ranges that follow the work: a range pushed on one thread selects the launches of another thread under --nvtx-scope process, and not under thread (Nsight Compute's rule)" \
    "OUT=... REV=... validation/scripts/release-checks.sh BUILD nvtx"
fi

if [[ " $stages " == *" longrun "* ]]; then
  check long_run 0 validation/scripts/long-run.sh "$BUILD" "$W/long-run.json"
  python3 -c 'import json,sys; print(json.dumps({"check": "long_run_result", **json.load(open(sys.argv[1]))}))' \
    "$W/long-run.json" >>"$W/results.jsonl"
  record "long-run-$gpu.json" "100,000 launches under profile with the defaults: peak memory, the application's memory after 10,000 launches and at the end, wall time and overhead per launch" \
    "OUT=... REV=... validation/scripts/release-checks.sh BUILD longrun"
fi

if [[ " $stages " == *" replay "* ]]; then
  check replay_phases 0 validation/scripts/replay-cost.sh "$BUILD" python3 tests/apps/torch_ops.py
  cp "$W/replay_phases.out" "$W/replay.txt"
  python3 -c 'import json,sys; print(json.dumps({"check": "replay_phases_output", "lines": open(sys.argv[1]).read().splitlines()}))' \
    "$W/replay.txt" >>"$W/results.jsonl"
  record "replay-phases-$gpu.json" "Where the replay time of profiled launches goes (ROOFKIT_REPLAY_PHASES=1, --sample all) on tests/apps/torch_ops.py" \
    "OUT=... REV=... validation/scripts/release-checks.sh BUILD replay"
fi

if [[ " $stages " == *" quickstart "* ]]; then
  rm -rf "$W/qs" && mkdir -p "$W/qs"
  tar --exclude=./build --exclude=./out -cf - . | tar -xf - -C "$W/qs"
  check quickstart_gpu 0 "$W/qs/scripts/run.sh"
  grep -h 'first result after\|tools built' "$W/quickstart_gpu.err" >"$W/qs.txt"
  python3 -c 'import json,sys; print(json.dumps({"check": "quickstart_lines", "lines": open(sys.argv[1]).read().splitlines()}))' \
    "$W/qs.txt" >>"$W/results.jsonl"
  record "quickstart-gpu-$gpu.json" "The GPU quick start from a copy of the tree with no build: scripts/run.sh builds both tools and runs roofline-cuda bench on the bundled kernels; time to the first result" \
    "OUT=... REV=... validation/scripts/release-checks.sh BUILD quickstart"
fi
ls -l "$OUT"
