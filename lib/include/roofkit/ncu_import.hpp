#pragma once
// roofkit/ncu_import.hpp: import of Nsight Compute CSV exports.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofkit/run.hpp"

namespace roofkit {

/// How FP16 instructions on the CUDA cores are counted.
struct ncu_import_options {
  /// true: ncu's convention, every HADD/HMUL/HFMA is a packed half2 (2, 2 and 4 FLOPs);
  /// false: NERSC's convention, scalar halves (1, 1 and 2 FLOPs).
  bool half2_packed = true;
};

/// Builds a run from `ncu --csv --page raw` output (header row of metric names, units row, one
/// row per kernel launch; ==PROF== lines and program output before the header are skipped), a
/// plain `ncu --set roofline` export included. Each `.sum` amount is read as `.sum`, as
/// `.sum.per_second` x time or as `.sum.per_cycle_elapsed` x elapsed cycles; tensor work is
/// dense ops against a dense roof (sparse ops kept apart); each kernel keeps its own clocks.
/// Values are converted to base units (bytes, seconds, Hz) from ncu's units row ("Kbyte",
/// "usecond", "cycle/nsecond", ...) and thousands separators are removed. Launches of one kernel
/// with the same grid and block are merged (time: median/min/max; work: mean). Ceilings are
/// derived from `*.peak_sustained` metrics when the CSV has them, otherwise left empty. The
/// metrics used are listed in docs/roofline-model.md and by ncu_roofline_metrics(). Throws
/// usage_error naming `source` when the text is not such a CSV or lacks the time or any work
/// metric.
run import_ncu_csv(std::string_view text, const std::string& source,
                   const ncu_import_options& options = {});

/// Reads a file and imports it (usage_error when it is missing or invalid).
run import_ncu_csv_file(const std::filesystem::path& path, const ncu_import_options& options = {});

/// The metrics to pass to `ncu --metrics` for a roofline import (time, clocks, FP64/FP32/FP16
/// instruction counts, bytes per level, their peaks, occupancy, device name). Tensor-core metrics
/// (sm__ops_path_tensor_src_*) are read when present but not listed: their names vary by chip.
std::vector<std::string> ncu_roofline_metrics();

/// A value of ncu's CSV in base units: removes thousands separators and applies the unit's
/// scale ("Kbyte" x1e3, "usecond" x1e-6, "cycle/nsecond" x1e9, "%" x1). nullopt for an empty
/// or non-numeric value ("n/a").
std::optional<double> ncu_value(std::string_view value, std::string_view unit);

} // namespace roofkit
