// Fuzz target: the size-like command-line values: shared-memory sizes ("48K", "1.5KB"),
// carveouts ("25%", "max_l1"), architecture names ("sm_90a", "9.0"), cliff sweep ranges
// ("64:1024:64", "1K:1G:x2") and counts ("32M"), and thresholds ("5%"). Each is accepted within
// its valid range or rejected with a usage error.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "roofkit/arch.hpp"
#include "roofkit/cliff.hpp"
#include "roofkit/occupancy.hpp"

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::int64_t bytes = -1;
  if (roofkit::fuzz::accepts("parse_size", [&] { bytes = roofkit::parse_size(text, "size"); }))
    roofkit::fuzz::check(bytes >= 0 && bytes <= (std::int64_t{1} << 40),
                         "a size is within 0..1 TiB");
  int carveout = -2;
  if (roofkit::fuzz::accepts("parse_carveout", [&] { carveout = roofkit::parse_carveout(text); }))
    roofkit::fuzz::check(carveout >= -1 && carveout <= 100, "a carveout is within -1..100");
  const roofkit::arch_spec* arch = nullptr;
  if (roofkit::fuzz::accepts("find_arch", [&] { arch = &roofkit::find_arch(text); }))
    roofkit::fuzz::check(arch->max_threads_per_block > 0, "a found architecture is complete");
  for (const auto axis : {roofkit::sweep_axis::block, roofkit::sweep_axis::smem,
                          roofkit::sweep_axis::regs, roofkit::sweep_axis::size}) {
    roofkit::sweep_range range;
    if (!roofkit::fuzz::accepts("parse_sweep_range",
                                [&] { range = roofkit::parse_sweep_range(text, axis); }))
      continue;
    const auto values = roofkit::sweep_values(range);
    roofkit::fuzz::check(!values.empty() && values.size() <= roofkit::max_sweep_points,
                         "a range has 1..max_sweep_points values");
    roofkit::fuzz::check(values.front() == range.first && values.back() <= range.last,
                         "a range starts at its first value and ends at or before its last");
    for (std::size_t i = 1; i < values.size(); ++i)
      roofkit::fuzz::check(values[i] > values[i - 1], "range values ascend");
    roofkit::sweep_range back;
    roofkit::fuzz::check(
        roofkit::fuzz::accepts(
            "parse_sweep_range",
            [&] { back = roofkit::parse_sweep_range(roofkit::to_string(range), axis); }),
        "a range's text form parses");
    roofkit::fuzz::check(roofkit::sweep_values(back) == values, "a range's text form is the same");
  }
  std::int64_t count = -1;
  if (roofkit::fuzz::accepts("parse_count", [&] { count = roofkit::parse_count(text, "size"); }))
    roofkit::fuzz::check(count >= 0, "a count is not negative");
  double threshold = -1;
  if (roofkit::fuzz::accepts("parse_threshold_percent",
                             [&] { threshold = roofkit::parse_threshold_percent(text); }))
    roofkit::fuzz::check(threshold > 0 && threshold < 1, "a threshold is within 0..1");
  return 0;
}
