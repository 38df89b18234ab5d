#pragma once
// The application's launches by shape (kernel, grid, block, dynamic shared memory) and enclosing
// NVTX ranges: which launches are profiled (the first N of each shape) and which inferred, the
// group each launch is timed under, and the records that say so. Memory grows with the distinct
// shapes and ranges only; the inferred launches go to the record log as they come. Also the
// groups' launch times from kernel activity records (launch_spans), for the launch timer.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "roofkit/app_profile.hpp"

namespace roofkit::inject {

/// Launch times from kernel activity records: each timed launch waits, by the driver call's
/// correlation id, for the record of its own function; a record of another function under the
/// same id (a kernel the profiler launched inside the application's launch call) is passed over.
/// Not thread-safe: the launch timer holds its lock around every call.
class launch_spans {
public:
  /// At most `limit` launches wait for their records at once.
  explicit launch_spans(std::size_t limit = 1 << 20) : limit_(limit) {}
  /// A launch of function `symbol` (mangled) counted under `group` will have a record.
  void expect(std::uint32_t correlation, int group, const char* symbol);
  /// The launch did not happen: no record will come.
  void cancel(std::uint32_t correlation) { awaiting_.erase(correlation); }
  /// A record; true when it was a launch's awaited one, whose time then counts.
  bool record(std::uint32_t correlation, const char* symbol, std::uint64_t start_ns,
              std::uint64_t end_ns);
  /// Per group, the records' times where every launch the events timed (`events`) has one
  /// (equal counts), else the events'; groups without events are left out.
  std::map<int, launch_time_stats> prefer(const std::map<int, launch_time_stats>& events) const;
  /// Groups of `events` that keep the events' times.
  int groups_left_to_events(const std::map<int, launch_time_stats>& events) const;
  /// Whether launches still wait for records: false once `limit` launches waited at once
  /// (records are not coming; the events time every group from then on).
  bool expecting() const { return expecting_; }

private:
  struct awaited {
    int group;
    std::size_t symbol; ///< hash of the function's mangled name
  };
  std::map<std::uint32_t, awaited> awaiting_;
  std::map<int, launch_time_stats> times_;
  std::size_t limit_;
  bool expecting_ = true;
};

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
