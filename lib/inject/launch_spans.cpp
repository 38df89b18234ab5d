#include "launch_spans.hpp"

#include <functional>
#include <string_view>

namespace roofkit::inject {

void launch_spans::expect(std::uint32_t correlation, int group, const char* symbol) {
  if (!expecting_ || !symbol)
    return;
  if (awaiting_.size() >= limit_) {
    expecting_ = false;
    awaiting_.clear();
    return;
  }
  awaiting_[correlation] = {group, std::hash<std::string_view>{}(symbol)};
}

bool launch_spans::record(std::uint32_t correlation, const char* symbol, std::uint64_t start_ns,
                          std::uint64_t end_ns) {
  const auto it = awaiting_.find(correlation);
  if (it == awaiting_.end() || !symbol ||
      it->second.symbol != std::hash<std::string_view>{}(symbol))
    return false;
  times_[it->second.group].add(static_cast<double>(end_ns - start_ns) * 1e-9);
  awaiting_.erase(it);
  return true;
}

std::map<int, launch_time_stats>
launch_spans::prefer(const std::map<int, launch_time_stats>& events) const {
  std::map<int, launch_time_stats> out = events;
  for (auto& [group, t] : out) {
    const auto span = times_.find(group);
    if (span != times_.end() && span->second.count() == t.count())
      t = span->second;
  }
  return out;
}

int launch_spans::groups_left_to_events(const std::map<int, launch_time_stats>& events) const {
  int n = 0;
  for (const auto& [group, t] : events) {
    const auto span = times_.find(group);
    n += span == times_.end() || span->second.count() != t.count();
  }
  return n;
}

} // namespace roofkit::inject
