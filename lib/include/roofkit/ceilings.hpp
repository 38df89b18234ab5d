#pragma once
// Empirical ceilings: microbenchmarks that measure what this GPU actually reaches (DRAM copy,
// FP32 and FP64 FMA throughput), beside the references a user would compare with (cudaMemcpy
// device-to-device, cuBLAS SGEMM/DGEMM when libcublas is present).
#include <string>
#include <vector>

#include "roofkit/printer.hpp"
#include "roofkit/run.hpp"

namespace roofkit {

/// How to measure.
struct ceilings_options {
  int device = 0;
  int repetitions = 20; ///< timed repetitions (median reported)
  std::size_t copy_bytes =
      0;                  ///< bytes per copy buffer; 0 = max(8 x L2, 1 GiB), capped by free memory
  bool references = true; ///< also time cudaMemcpy and cuBLAS
};

/// One measured figure (a ceiling or a reference).
struct ceiling_measurement {
  std::string name; ///< "dram copy kernel", "cudaMemcpy D2D", "cuBLAS SGEMM 8192^3", ...
  std::string unit; ///< "B/s" or "FLOP/s"
  double value = 0; ///< median rate
  double best = 0;  ///< rate of the fastest repetition
  double work = 0;  ///< bytes or FLOPs per repetition
  timing time;
  double theoretical = 0; ///< the matching theoretical roof (0 when none)
  std::string method;     ///< how it is counted
};

/// What measure_ceilings found.
struct ceilings_result {
  std::vector<ceiling> ceilings;                 ///< measured roofs (source = measured)
  std::vector<ceiling_measurement> measurements; ///< every figure, ceilings and references
  double sm_clock_mhz = 0;                       ///< SM clock observed after the runs
  std::string sm_clock_method;
};

/// Runs the microbenchmarks on `options.device`. Throws no_device_error without a GPU.
ceilings_result measure_ceilings(const ceilings_options& options,
                                 const std::vector<ceiling>& theoretical);

/// The measurements as a table (id "ceilings_measured"): value, % of theoretical, time, method.
table measured_ceilings_table(const ceilings_result& result);

} // namespace roofkit
