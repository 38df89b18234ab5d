// The built-in metric sets. Names were checked with the CUPTI 13.0 host API for GV100, TU102,
// GA100, AD102, GH100, GB100 and GB202 (docs/metrics.md lists what each chip resolves to).
#include <fmt/format.h>

#include "roofkit/core.hpp"
#include "roofkit/profiler.hpp"

namespace roofkit {

namespace {

metric_spec flop(std::string key, const std::string& op, precision p, double weight,
                 std::string what) {
  metric_spec m;
  m.key = std::move(key);
  m.names = {fmt::format("sm__sass_thread_inst_executed_op_{}_pred_on.sum", op)};
  m.description = std::move(what);
  m.role = metric_role::flops;
  m.prec = p;
  m.weight = weight;
  return m;
}

metric_spec tensor(std::string key, std::vector<std::string> paths, precision p, std::string what,
                   std::vector<std::string> chips = {}) {
  metric_spec m;
  m.key = std::move(key);
  // Dense work first: a family's `_sparsity_off` counter where the chip has one (the family's own
  // counter adds structured-sparse MMAs, which no dense roof bounds).
  for (const auto& path : paths) {
    m.names.push_back("sm__ops_path_tensor_" + path + "_sparsity_off.sum");
    m.names.push_back("sm__ops_path_tensor_" + path + ".sum");
  }
  m.description = std::move(what);
  m.role = metric_role::flops;
  m.prec = p;
  m.weight = 1; // the ops_path counters count an FMA as 2 operations already
  m.optional = true;
  m.chips = std::move(chips);
  return m;
}

metric_spec plain(std::string key, std::vector<std::string> names, metric_role role,
                  std::string what) {
  metric_spec m;
  m.key = std::move(key);
  m.names = std::move(names);
  m.description = std::move(what);
  m.role = role;
  return m;
}

metric_spec bytes(std::string key, std::vector<std::string> names, memory_level level,
                  std::string what, double weight = 1) {
  metric_spec m = plain(std::move(key), std::move(names), metric_role::bytes, std::move(what));
  m.level = level;
  m.weight = weight;
  return m;
}

// Memory levels. L2 and DRAM as Nsight Compute's hierarchical roofline sections define them
// (SpeedOfLight_Hierarchical*RooflineChart.section of ncu 2025.3): L2 is the L2-to-crossbar
// data path at 32 B a cycle (what the L2 returns to the SMs); DRAM is read + write. L1 is ncu's
// L1 (the LSU writeback path at 128 B a cycle: global, local and distributed-shared data, `_mem_lg`
// before CC 9.0) plus the shared-memory data-pipe wavefronts of loads and stores at 128 B each,
// which ncu's counter does not include (measured on the H100: docs/metrics.md), so that a
// kernel bound by shared memory sits at its roof. docs/metrics.md says why.
std::vector<metric_spec> memory_levels() {
  return {
      bytes("dram_read", {"dram__bytes_read.sum", "dram__bytes_op_read.sum"}, memory_level::dram,
            "bytes read from DRAM"),
      bytes("dram_write", {"dram__bytes_write.sum", "dram__bytes_op_write.sum"}, memory_level::dram,
            "bytes written to DRAM"),
      bytes("l2_bytes", {"lts__lts2xbar_cycles_active.sum"}, memory_level::l2,
            "L2-to-SM traffic: 32 B per active L2-to-crossbar cycle", 32),
      bytes("l1_bytes",
            {"l1tex__lsu_writeback_active_mem_lgds.sum", "l1tex__lsu_writeback_active_mem_lg.sum",
             "l1tex__lsu_writeback_active.sum"},
            memory_level::l1,
            "L1 global/local/distributed-shared traffic: 128 B per active LSU writeback cycle",
            128),
      bytes("l1_shared_ld", {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
            memory_level::l1, "shared-memory load traffic: 128 B per data-pipe wavefront", 128),
      bytes("l1_shared_st", {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"},
            memory_level::l1, "shared-memory store traffic: 128 B per data-pipe wavefront", 128),
  };
}

// Raw counters of the other common definitions, kept in the run while within the pass budget.
std::vector<metric_spec> other_level_definitions() {
  auto optional_count = [](std::string key, std::string name, std::string what) {
    metric_spec m = plain(std::move(key), {std::move(name)}, metric_role::count, std::move(what));
    m.optional = true;
    return m;
  };
  return {
      optional_count("l1_tag_bytes", "l1tex__t_bytes.sum",
                     "bytes at the L1/TEX tag stage (global and local only; NERSC's L1)"),
      optional_count("l2_tag_bytes", "lts__t_bytes.sum",
                     "bytes of every L2 tag lookup (NERSC's L2; counts L2 fabric traffic too)"),
  };
}

// Tensor paths, disjoint on every chip: a chip that has the per-instruction `op_` counters
// (GH100, GB10x, GB20x) resolves to those; older chips fall back to the `src_` summaries, which
// there count the only instruction family (HMMA/IMMA/DMMA). On GH100 `src_fp8` counts QGMMA
// alone (Hopper has no FP8 mma.sync), on AD10x QMMA alone. Order = priority under a budget:
// warpgroup and tcgen05 MMA first (cuBLAS, CUTLASS 3, FlashAttention 3), then mma.sync FP16 and
// BF16 (WMMA, FlashAttention 2, Triton before Hopper), then FP64 DMMA, then the rarer paths.
std::vector<metric_spec> tensor_paths() {
  using p = precision;
  const std::vector<std::string> fp64_tensor_chips{"GA100", "GH100", "GB100", "GB102", "GB110"};
  return {
      tensor("hgmma_fp16", {"op_hgmma_src_fp16"}, p::tensor_fp16, "HGMMA FP16 tensor ops"),
      tensor("hgmma_bf16", {"op_hgmma_src_bf16_dst_fp32"}, p::tensor_fp16, "HGMMA BF16 tensor ops"),
      tensor("hgmma_tf32", {"op_hgmma_src_tf32_dst_fp32"}, p::tensor_tf32, "HGMMA TF32 tensor ops"),
      tensor("qgmma_fp8", {"src_fp8"}, p::tensor_fp8, "QGMMA FP8 tensor ops (wgmma only)",
             {"GH100"}),
      tensor("igmma_int8", {"op_igmma_src_int8"}, p::tensor_int8, "IGMMA INT8 tensor ops"),
      tensor("utc_fp16_f32", {"op_utchmma_src_fp16_dst_fp32"}, p::tensor_fp16,
             "tcgen05 FP16 tensor ops, FP32 accumulate"),
      tensor("utc_bf16", {"op_utchmma_src_bf16_dst_fp32"}, p::tensor_fp16,
             "tcgen05 BF16 tensor ops"),
      tensor("utc_tf32", {"op_utchmma_src_tf32_dst_fp32"}, p::tensor_tf32,
             "tcgen05 TF32 tensor ops"),
      tensor("utc_fp8_f32", {"op_utcqmma_src_fp4_fp6_fp8_dst_fp32"}, p::tensor_fp8,
             "tcgen05 FP8/FP6/FP4 tensor ops, FP32 accumulate"),
      tensor("utc_fp16_f16", {"op_utchmma_src_fp16_dst_fp16"}, p::tensor_fp16,
             "tcgen05 FP16 tensor ops, FP16 accumulate"),
      tensor("utc_fp8_f16", {"op_utcqmma_src_fp4_fp6_fp8_dst_fp16"}, p::tensor_fp8,
             "tcgen05 FP8/FP6/FP4 tensor ops, FP16 accumulate"),
      tensor("utc_int8", {"op_utcimma_src_int8"}, p::tensor_int8, "tcgen05 INT8 tensor ops"),
      tensor("hmma_fp16_f32",
             {"op_hmma_src_fp16_dst_fp32", "src_fp16_dst_fp32", "src_fp16_bf16_tf32_dst_fp32"},
             p::tensor_fp16, "HMMA FP16 tensor ops, FP32 accumulate (mma.sync, WMMA)"),
      tensor("hmma_bf16", {"op_hmma_src_bf16_dst_fp32", "src_bf16_dst_fp32"}, p::tensor_fp16,
             "HMMA BF16 tensor ops"),
      tensor("dmma_fp64", {"src_fp64"}, p::tensor_fp64, "DMMA FP64 tensor ops", fp64_tensor_chips),
      tensor("mma_fp8", {"src_fp8", "src_fp8_dst_fp32"}, p::tensor_fp8,
             "FP8 mma.sync tensor ops (QMMA; FP32 accumulate on GB20x)", {"AD10", "GB20"}),
      tensor("hmma_tf32", {"op_hmma_src_tf32_dst_fp32", "src_tf32_dst_fp32"}, p::tensor_tf32,
             "HMMA TF32 tensor ops"),
      tensor("hmma_fp16_f16", {"op_hmma_src_fp16_dst_fp16", "src_fp16_dst_fp16"}, p::tensor_fp16,
             "HMMA FP16 tensor ops, FP16 accumulate"),
      tensor("imma_int8", {"op_imma_src_int8", "src_int8"}, p::tensor_int8,
             "IMMA INT8 tensor ops (mma.sync)"),
      tensor("mma_fp8_f16", {"src_fp8_dst_fp16"}, p::tensor_fp8,
             "FP8 mma.sync tensor ops, FP16 accumulate (GB20x)", {"GB20"}),
  };
}

std::vector<metric_spec> cuda_core_flops() {
  using p = precision;
  return {
      flop("fadd", "fadd", p::fp32, 1, "FADD thread instructions (1 FLOP)"),
      flop("fmul", "fmul", p::fp32, 1, "FMUL thread instructions (1 FLOP)"),
      flop("ffma", "ffma", p::fp32, 2, "FFMA thread instructions (2 FLOPs)"),
      flop("dadd", "dadd", p::fp64, 1, "DADD thread instructions (1 FLOP)"),
      flop("dmul", "dmul", p::fp64, 1, "DMUL thread instructions (1 FLOP)"),
      flop("dfma", "dfma", p::fp64, 2, "DFMA thread instructions (2 FLOPs)"),
      flop("hadd", "hadd", p::fp16, 2, "HADD thread instructions (2 FLOPs: half2 convention)"),
      flop("hmul", "hmul", p::fp16, 2, "HMUL thread instructions (2 FLOPs: half2 convention)"),
      flop("hfma", "hfma", p::fp16, 4, "HFMA thread instructions (4 FLOPs: half2 convention)"),
  };
}

std::vector<metric_spec> time_and_clocks() {
  return {
      plain("time", {"gpu__time_duration.sum"}, metric_role::time, "kernel duration (ns)"),
      plain("sm_cycles", {"sm__cycles_elapsed.avg"}, metric_role::sm_cycles,
            "SM cycles elapsed, average over SMs"),
      plain("sm_clock", {"sm__cycles_elapsed.avg.per_second"}, metric_role::sm_clock,
            "SM clock during the kernel (Hz)"),
      plain("dram_clock", {"dram__cycles_elapsed.avg.per_second"}, metric_role::dram_clock,
            "DRAM clock during the kernel (Hz)"),
      plain("l2_clock", {"lts__cycles_elapsed.avg.per_second"}, metric_role::count,
            "L2 clock during the kernel (Hz)"),
  };
}

metric_set_def roofline_set() {
  metric_set_def s;
  s.name = "roofline";
  s.description = "hierarchical roofline: FLOPs per precision, bytes per level, time, clocks, "
                  "achieved occupancy; tensor paths while within 3 passes";
  s.pass_budget = 3;
  s.metrics = cuda_core_flops();
  for (auto& m : memory_levels())
    s.metrics.push_back(std::move(m));
  for (auto& m : time_and_clocks())
    s.metrics.push_back(std::move(m));
  s.metrics.push_back(plain("occupancy", {"sm__warps_active.avg.pct_of_peak_sustained_active"},
                            metric_role::occupancy, "achieved occupancy (% of warp slots)"));
  for (auto& m : tensor_paths())
    s.metrics.push_back(std::move(m));
  for (auto& m : other_level_definitions())
    s.metrics.push_back(std::move(m));
  return s;
}

metric_set_def roofline_full_set() {
  metric_set_def s = roofline_set();
  s.name = "roofline-full";
  s.description = "the roofline set with every tensor path of the chip, whatever the passes";
  s.pass_budget = 0;
  return s;
}

metric_set_def tensor_set() {
  metric_set_def s;
  s.name = "tensor";
  s.description = "every tensor-core path of the chip, plus tensor instruction counts";
  s.metrics.push_back(
      plain("time", {"gpu__time_duration.sum"}, metric_role::time, "kernel duration (ns)"));
  for (auto m : tensor_paths()) {
    m.optional = false;
    s.metrics.push_back(std::move(m));
  }
  for (const char* op : {"hmma", "gmma", "dmma", "imma"}) {
    auto m = plain(fmt::format("inst_{}", op),
                   {fmt::format("sm__inst_executed_pipe_tensor_op_{}.sum", op)}, metric_role::count,
                   fmt::format("{} warp instructions on the tensor pipe", op));
    m.optional = true; // not every chip has each family; dropped quietly
    s.metrics.push_back(std::move(m));
  }
  return s;
}

metric_set_def coalescing_set() {
  metric_set_def s;
  s.name = "coalescing";
  s.description = "global load/store and cp.async requests, sectors and bytes asked for, "
                  "shared-memory wavefronts and bank conflicts (2 passes)";
  auto add = [&](std::string key, std::string name, std::string what, bool optional = false) {
    s.metrics.push_back(
        plain(std::move(key), {std::move(name)}, metric_role::count, std::move(what)));
    s.metrics.back().optional = optional;
  };
  add("global_ld_requests", "smsp__sass_inst_executed_op_global_ld.sum",
      "global load requests (warp-level LDG instructions)");
  add("global_ld_sectors", "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "32-byte sectors requested by global loads");
  add("global_st_requests", "smsp__sass_inst_executed_op_global_st.sum",
      "global store requests (warp-level STG instructions)");
  add("global_st_sectors", "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum",
      "32-byte sectors requested by global stores");
  add("global_ld_bytes", "smsp__sass_data_bytes_mem_global_op_ld.sum",
      "bytes the active threads of global loads asked for");
  add("global_st_bytes", "smsp__sass_data_bytes_mem_global_op_st.sum",
      "bytes the active threads of global stores asked for");
  // cp.async (CC 8.0 and later): optional, so that older chips drop them without a warning.
  add("ldgsts_requests", "smsp__sass_inst_executed_op_ldgsts.sum",
      "cp.async loads from global memory (warp-level LDGSTS instructions)", true);
  add("ldgsts_sectors", "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum",
      "32-byte sectors requested by cp.async loads", true);
  add("ldgsts_bytes", "smsp__sass_data_bytes_mem_global_op_ldgsts.sum",
      "bytes the active threads of cp.async loads asked for", true);
  add("shared_ld_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "shared-memory load wavefronts");
  add("shared_st_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      "shared-memory store wavefronts");
  add("shared_ld_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
      "shared-memory bank conflicts on loads");
  add("shared_st_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
      "shared-memory bank conflicts on stores");
  return s;
}

} // namespace

const std::vector<metric_set_def>& metric_sets() {
  static const std::vector<metric_set_def> sets{roofline_set(), roofline_full_set(), tensor_set(),
                                                coalescing_set()};
  return sets;
}

const metric_set_def& find_metric_set(const std::string& name) {
  std::string valid;
  for (const auto& s : metric_sets()) {
    if (s.name == name)
      return s;
    valid += (valid.empty() ? "" : ", ") + s.name;
  }
  throw usage_error(fmt::format("unknown metric set '{}' (valid: {})", name, valid));
}

metric_set_def custom_metric_set(const std::vector<std::string>& names) {
  metric_set_def s;
  s.name = "custom";
  s.description = "metrics named on the command line";
  for (const auto& n : names)
    s.metrics.push_back(plain(n, {n}, metric_role::count, ""));
  return s;
}

} // namespace roofkit
