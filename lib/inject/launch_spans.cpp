#include "launch_spans.hpp"

#include <functional>
#include <string_view>

namespace roofkit::inject {

std::size_t symbol_hash(const char* mangled) { return std::hash<std::string_view>{}(mangled); }

std::int64_t launch_spans::expect(std::uint32_t correlation, int group,
                                  std::optional<std::size_t> symbol) {
  if (!expecting_ || !symbol)
    return 0;
  if (awaiting_.size() >= limit_) {
    expecting_ = false;
    awaiting_.clear();
    return 0;
  }
  awaiting_[correlation] = {group, *symbol};
  return ++waited_[group];
}

void launch_spans::cancel(std::uint32_t correlation) {
  const auto it = awaiting_.find(correlation);
  if (it == awaiting_.end())
    return;
  --waited_[it->second.group];
  awaiting_.erase(it);
}

bool launch_spans::record(std::uint32_t correlation, std::size_t symbol, std::uint64_t start_ns,
                          std::uint64_t end_ns) {
  const auto it = awaiting_.find(correlation);
  if (it == awaiting_.end() || it->second.symbol != symbol)
    return false;
  times_[it->second.group].add(static_cast<double>(end_ns - start_ns) * 1e-9);
  awaiting_.erase(it);
  return true;
}

std::map<int, launch_time_stats>
launch_spans::combine(const std::map<int, launch_time_stats>& events,
                      const std::map<int, launch_time_stats>& samples) const {
  std::map<int, launch_time_stats> out = events;
  const auto timed = [](const std::map<int, launch_time_stats>& m, int group) {
    const auto it = m.find(group);
    return it != m.end() && it->second.count() > 0 ? &it->second : nullptr;
  };
  for (const auto& [group, waited] : waited_) {
    const launch_time_stats* from = timed(times_, group);
    if (!from)
      from = timed(samples, group);
    if (waited <= 0 || !from)
      continue;
    launch_time_stats part = *from;
    part.extrapolate_to(waited);
    out[group].merge(part);
  }
  return out;
}

int launch_spans::groups_short_of_records() const {
  int n = 0;
  for (const auto& [group, waited] : waited_) {
    const auto span = times_.find(group);
    n += (span == times_.end() ? 0 : span->second.count()) < waited;
  }
  return n;
}

} // namespace roofkit::inject
