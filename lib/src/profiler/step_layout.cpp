#include "step_layout.hpp"

#include <algorithm>

namespace roofkit::detail {

step_layout lay_out_steps(const std::vector<profiler_session::sequence_step>& steps,
                          std::size_t flush_ranges) {
  step_layout layout;
  for (const auto& step : steps) {
    if (step.measured) {
      layout.ranges += flush_ranges;
      layout.measured_at.push_back(layout.ranges);
    }
    layout.ranges += step.kernel ? 1 : 0;
  }
  return layout;
}

std::size_t image_ranges(std::size_t ranges, std::size_t longest) {
  std::size_t size = 2;
  while (size < ranges + 1)
    size *= 2;
  return ranges <= longest ? std::min(size, longest + 1) : size;
}

bool reads_instances(const std::vector<std::string>& names) {
  for (const auto& name : names) {
    std::size_t dot = name.find('.');
    while (dot != std::string::npos) {
      const std::size_t next = name.find('.', dot + 1);
      const std::string part = name.substr(dot + 1, next - dot - 1);
      if (part == "max" || part == "min")
        return true;
      dot = next;
    }
  }
  return false;
}

} // namespace roofkit::detail
