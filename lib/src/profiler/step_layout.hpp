#pragma once
// Where the counter ranges of one replay pass lie for a sequence of steps (profile_steps): each
// measured step after its cache control's ranges, each kernel launch a range of its own, other
// work (a memset) none. Pure bookkeeping, tested on the CPU.
#include <cstddef>
#include <string>
#include <vector>

#include "roofkit/profiler.hpp"

namespace roofkit::detail {

/// The ranges of a pass, and the index of each measured step's range in order.
struct step_layout {
  std::size_t ranges = 0;
  std::vector<std::size_t> measured_at;
};

/// The layout of `steps` when each measured one is preceded by `flush_ranges` ranges of cache
/// control (0 for the driver's flush, which launches no kernel).
step_layout lay_out_steps(const std::vector<profiler_session::sequence_step>& steps,
                          std::size_t flush_ranges);

/// The layout of `steps` in user range (profiler_options::step_user_ranges): each measured step
/// is a range of its own, pushed after its cache control; nothing else is a range.
step_layout lay_out_user_range_steps(const std::vector<profiler_session::sequence_step>& steps);

/// The name of the user range of the measured step `index` (its order among measured steps).
std::string step_range_name(std::size_t index);

/// For each of `measured` steps in order, the index of its range among `names` (a decoded image's
/// range names, in the image's order). Throws runtime_error naming the first step whose range is
/// missing, or when there are other ranges.
std::vector<std::size_t> step_ranges_by_name(const std::vector<std::string>& names,
                                             std::size_t measured);

/// The ranges a counter image is made for to hold `ranges` and one more (a work that launched a
/// second kernel shows as one range too many): the next power of two, at least 2, so that few
/// sizes of blank image are kept; but no more than `longest` + 1 when `ranges` is at most
/// `longest`, the most ranges any call takes (the longest call's image is then the warm-up's).
std::size_t image_ranges(std::size_t ranges, std::size_t longest);

/// Whether evaluating `names` reads raw counters per unit instance, which only a max or min
/// rollup does ("gpu__time_duration.max"); every other rollup and ratio is evaluated from totals.
bool reads_instances(const std::vector<std::string>& names);

} // namespace roofkit::detail
