#pragma once
// The application's launches by shape (kernel, grid, block, dynamic shared memory) and enclosing
// NVTX ranges: which launches are profiled (the first N of each shape) and which inferred, the
// group each launch is timed under, and the records that say so. Memory grows with the distinct
// shapes and ranges only; the inferred launches go to the record log as they come.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "roofkit/app_profile.hpp"

namespace roofkit::inject {

class launch_book {
public:
  launch_book(sample_limit limit, std::int64_t pid) : sampler_(limit), pid_(pid) {}

  /// Where a launch is counted.
  struct place {
    int shape = 0;
    int range = -1; ///< -1: outside every range
    int group = 0;  ///< the (shape, range) pair, the launch timer's key
  };
  /// The place of a launch of kernel `kernel` (with its symbol `mangled`) inside `path`.
  place locate(int kernel, const char* mangled, const std::array<std::uint32_t, 3>& grid,
               const std::array<std::uint32_t, 3>& block, std::uint32_t dynamic_smem,
               const std::vector<std::string>& path);
  /// A selected launch: true when it is to be profiled. Otherwise it is inferred from its shape,
  /// and a record line to write is returned in `line` when enough inferred launches wait.
  bool measure(const place& p, std::int64_t index, std::string& line);
  /// What measure() would answer now, without counting the launch.
  bool would_measure(const place& p) const { return sampler_.would_measure(p.shape); }
  /// The records at exit: the inferred launches still waiting, the timings per kernel name, and
  /// the shapes, ranges and groups, with the times of `stats` (per group).
  std::vector<std::string> finish(const std::vector<std::string>& kernel_names,
                                  const std::map<int, launch_time_stats>& stats);

  std::int64_t measured() const { return sampler_.measured_total(); }
  std::int64_t inferred() const { return sampler_.inferred_total(); }

  /// Most distinct NVTX range paths followed; later ones are counted under one more.
  static constexpr std::size_t max_ranges = 4096;
  /// Inferred launches written per record line.
  static constexpr std::size_t inferred_per_line = 4096;

private:
  struct group_count {
    int shape = 0;
    int range = -1;
    std::int64_t launches = 0;
    std::int64_t measured = 0;
    std::int64_t inferred = 0;
  };
  int range_of(const std::vector<std::string>& path);

  shape_sampler sampler_;
  std::int64_t pid_;
  std::vector<std::string> mangled_; ///< per shape
  std::map<std::vector<std::string>, int> range_ids_;
  std::vector<std::vector<std::string>> ranges_;
  std::map<std::pair<int, int>, int> group_ids_;
  std::vector<group_count> groups_;
  std::vector<std::pair<std::int64_t, int>> inferred_; ///< waiting to be written
};

} // namespace roofkit::inject
