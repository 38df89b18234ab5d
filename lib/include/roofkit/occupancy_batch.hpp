#pragma once
// Batch occupancy: one CSV row per launch in, one JSON object per row out (JSON Lines).
#include <cstddef>
#include <string>
#include <string_view>

namespace roofkit {

/// The CSV header a batch file must start with.
inline constexpr std::string_view occupancy_batch_header =
    "arch,threads,regs,smem_static,smem_dynamic,carveout";

/// What a batch run did.
struct batch_summary {
  std::size_t rows = 0;    ///< data rows read (blank lines skipped)
  std::size_t invalid = 0; ///< rows answered with {"error": ...}
  std::string first_error; ///< "line 7: ..." for the first invalid row
};

/// Computes every row of `csv` and appends one JSON object per row to `jsonl`, in order:
/// {"line":2,"arch":"sm_90","threads":256,"regs":32,"smem_static":0,"smem_dynamic":0,
///  "carveout":-1,"active_blocks_per_sm":8,"active_warps_per_sm":64,"occupancy":1,
///  "limiters":["warps","registers"]} (plus "reason" when no block fits), or
/// {"line":3,"error":"..."} for an invalid row. Sizes accept K/M suffixes; carveout -1 is the
/// default. Throws usage_error when the header is not occupancy_batch_header.
batch_summary run_occupancy_batch(std::string_view csv, std::string& jsonl);

} // namespace roofkit
