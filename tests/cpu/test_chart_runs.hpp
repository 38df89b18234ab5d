#pragma once
// Runs built in code for the chart tests (no results file needed).
#include <string>

#include <fmt/format.h>

#include "roofkit/run.hpp"

namespace chart_test {

inline roofkit::ceiling memory_ceiling(roofkit::memory_level l, double v,
                                       roofkit::ceiling_source s) {
  roofkit::ceiling c;
  c.is_memory = true;
  c.level = l;
  c.value = v;
  c.source = s;
  c.sm_clock_mhz = 1980;
  c.mem_clock_mhz = 2619;
  c.method = "test";
  return c;
}

inline roofkit::ceiling compute_ceiling(roofkit::precision p, double v, roofkit::ceiling_source s) {
  roofkit::ceiling c;
  c.prec = p;
  c.value = v;
  c.source = s;
  c.sm_clock_mhz = 1980;
  c.method = "test";
  return c;
}

inline roofkit::kernel_result kernel(const std::string& name, roofkit::precision p, double flops,
                                     double dram_bytes, double time_s) {
  roofkit::kernel_result k;
  k.name = name;
  k.flops[p] = flops;
  k.bytes[roofkit::memory_level::dram] = dram_bytes;
  k.time.median_s = time_s;
  k.time.repetitions = 20;
  k.source = roofkit::work_source::analytical;
  return k;
}

/// H100-like ceilings: DRAM 3352 GB/s theoretical + 3024 measured, L2 4.86 TB/s, L1 33.4 TB/s,
/// FP32 66.9 TF, TF32 494.7 TF, FP16 tensor 989.4 TF.
inline roofkit::run h100_run() {
  using namespace roofkit;
  run r;
  r.context.device_name = "NVIDIA H100 80GB HBM3";
  r.context.cc_major = 9;
  r.context.sm_count = 132;
  r.context.sm_clock_mhz = 1980;
  r.context.mem_clock_mhz = 2619;
  r.context.date = "2026-11-22";
  r.context.tool_version = "0.1.0";
  r.context.origin = run_origin::analytical;
  r.ceilings = {memory_ceiling(memory_level::dram, 3352e9, ceiling_source::theoretical),
                memory_ceiling(memory_level::dram, 3024e9, ceiling_source::measured),
                memory_ceiling(memory_level::l2, 4.86e12, ceiling_source::measured),
                memory_ceiling(memory_level::l1, 33.4e12, ceiling_source::theoretical),
                compute_ceiling(precision::fp32, 66.9e12, ceiling_source::theoretical),
                compute_ceiling(precision::fp64, 33.5e12, ceiling_source::theoretical),
                compute_ceiling(precision::tensor_tf32, 494.7e12, ceiling_source::theoretical),
                compute_ceiling(precision::tensor_fp16, 989.4e12, ceiling_source::theoretical)};
  return r;
}

/// A run with memory-bound and compute-bound kernels, a copy (no FLOPs) and a failed kernel.
inline roofkit::run mixed_run() {
  using namespace roofkit;
  run r = h100_run();
  auto k1 = kernel("coalesced_access(float*, float*, int)", precision::fp32, 67108864.0,
                   536870912.0, 219.13e-6);
  k1.bytes[memory_level::l1] = 536870912.0 * 2;
  k1.bytes[memory_level::l2] = 536870912.0 * 1.5;
  r.kernels.push_back(k1);
  r.kernels.push_back(
      kernel("uncoalesced_access", precision::fp32, 67108864.0, 2415919104.0, 986.1e-6));
  r.kernels.push_back(
      kernel("sgemm_8192", precision::fp32, 1099511627776.0, 805306368.0, 21.433e-3));
  r.kernels.push_back(
      kernel("hgemm_bf16_8192", precision::tensor_fp16, 1099511627776.0, 402653184.0, 1.4078e-3));
  auto copy = kernel("copy_float4", precision::fp32, 0, 8589934592.0, 2.9868e-3);
  copy.flops.clear();
  r.kernels.push_back(copy);
  auto failed = kernel("broken_kernel", precision::fp32, 1e9, 1e9, 1e-3);
  failed.status = "failed";
  failed.message = "verification: 12 of 4096 values differ";
  r.kernels.push_back(failed);
  return r;
}

/// n kernels with close intensities and performance, to stress label placement.
inline roofkit::run crowded_run(int n) {
  roofkit::run r = h100_run();
  for (int i = 0; i < n; ++i) {
    const double intensity = 0.2 * (1 + 0.02 * i);
    const double bytes = 1e9;
    const double perf = 400e9 * (1 + 0.015 * ((i * 7) % 11));
    r.kernels.push_back(kernel(fmt::format("stencil_variant_{:02d}", i), roofkit::precision::fp32,
                               intensity * bytes, bytes, intensity * bytes / perf));
  }
  return r;
}

} // namespace chart_test
