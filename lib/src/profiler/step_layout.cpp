#include "step_layout.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "roofkit/core.hpp"

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

step_layout lay_out_user_range_steps(const std::vector<profiler_session::sequence_step>& steps) {
  step_layout layout;
  for (const auto& step : steps)
    if (step.measured)
      layout.measured_at.push_back(layout.ranges++);
  return layout;
}

std::string step_range_name(std::size_t index) { return fmt::format("step {}", index); }

std::vector<std::size_t> step_ranges_by_name(const std::vector<std::string>& names,
                                             std::size_t measured) {
  std::map<std::string, std::size_t> at;
  for (std::size_t i = 0; i < names.size(); ++i)
    at.emplace(names[i], i);
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < measured; ++i) {
    const auto it = at.find(step_range_name(i));
    if (it == at.end())
      throw runtime_error(fmt::format("the counter image has no range for measured step {} of {} "
                                      "({} ranges decoded)",
                                      i + 1, measured, names.size()));
    out.push_back(it->second);
  }
  if (names.size() != measured)
    throw runtime_error(fmt::format("the counter image has {} ranges for {} measured steps",
                                    names.size(), measured));
  return out;
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
