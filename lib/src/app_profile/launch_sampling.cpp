// Per-shape sampling of an application's launches: which launches of a shape are profiled, and
// launch times kept in flat memory.
#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include <fmt/format.h>

#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"

namespace roofkit {

std::string to_string(sample_limit s) { return s.all() ? "all" : std::to_string(s.per_shape); }

sample_limit parse_sample_limit(std::string_view text) {
  if (text == "all")
    return {-1};
  const std::string s(text);
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno != 0 || v < 1 || v > max_sample_per_shape)
    throw usage_error(
        fmt::format("sample '{}' is not valid (valid: 1 to {}, or all)", s, max_sample_per_shape));
  return {v};
}

int shape_sampler::shape_of(int kernel, const std::array<std::uint32_t, 3>& grid,
                            const std::array<std::uint32_t, 3>& block, std::uint32_t dynamic_smem) {
  const key k{kernel, grid, block, dynamic_smem};
  auto [it, added] = ids_.try_emplace(k, static_cast<int>(keys_.size()));
  if (added) {
    keys_.push_back(k);
    counts_.emplace_back(0, 0);
  }
  return it->second;
}

bool shape_sampler::would_measure(int shape) const {
  return limit_.all() || counts_.at(static_cast<std::size_t>(shape)).first < limit_.per_shape;
}

bool shape_sampler::measure(int shape) {
  auto& [measured, inferred] = counts_.at(static_cast<std::size_t>(shape));
  if (limit_.all() || measured < limit_.per_shape) {
    ++measured;
    ++measured_total_;
    return true;
  }
  ++inferred;
  ++inferred_total_;
  return false;
}

void launch_time_stats::add(double seconds) {
  min_ = count_ == 0 ? seconds : std::min(min_, seconds);
  max_ = count_ == 0 ? seconds : std::max(max_, seconds);
  ++count_;
  total_ += seconds;
  if (sample_.size() < kept) {
    sample_.push_back(static_cast<float>(seconds));
    return;
  }
  // Reservoir sampling (Algorithm R) with a fixed-seed xorshift: every launch equally likely kept.
  rng_ ^= rng_ << 13;
  rng_ ^= rng_ >> 7;
  rng_ ^= rng_ << 17;
  const std::uint64_t slot = rng_ % static_cast<std::uint64_t>(count_);
  if (slot < kept)
    sample_[slot] = static_cast<float>(seconds);
}

void launch_time_stats::merge(const launch_time_stats& other) {
  if (other.count_ == 0)
    return;
  const double lo = count_ ? std::min(min_, other.min_) : other.min_;
  const double hi = count_ ? std::max(max_, other.max_) : other.max_;
  const std::int64_t n = count_ + other.count_;
  const double total = total_ + other.total_;
  // The merged sample keeps each side in proportion to its launches.
  std::vector<float> merged;
  const auto take = [&](const std::vector<float>& from, std::int64_t launches) {
    const std::size_t want = std::min(
        from.size(),
        static_cast<std::size_t>(std::max<std::int64_t>(
            1, static_cast<std::int64_t>(kept) * launches / std::max<std::int64_t>(n, 1))));
    for (std::size_t i = 0; i < want; ++i)
      merged.push_back(from[i * from.size() / want]);
  };
  if (n <= static_cast<std::int64_t>(kept)) {
    merged = sample_;
    merged.insert(merged.end(), other.sample_.begin(), other.sample_.end());
  } else {
    take(sample_, count_);
    take(other.sample_, other.count_);
  }
  sample_ = std::move(merged);
  count_ = n;
  total_ = total;
  min_ = lo;
  max_ = hi;
}

void launch_time_stats::extrapolate_to(std::int64_t launches) {
  if (count_ == 0 || launches <= count_)
    return;
  total_ *= static_cast<double>(launches) / static_cast<double>(count_);
  count_ = launches;
}

double launch_time_stats::median_s() const {
  if (sample_.empty())
    return 0;
  std::vector<float> s = sample_;
  std::sort(s.begin(), s.end());
  const std::size_t n = s.size();
  return n % 2 ? s[n / 2] : 0.5 * (static_cast<double>(s[n / 2 - 1]) + s[n / 2]);
}

void nvtx_range_tracker::push(std::uint64_t thread, const std::string& name) {
  std::lock_guard lock(mutex_);
  stacks_[thread].push_back(name);
  ++open_[name];
  std::erase(pushers_, thread);
  pushers_.push_back(thread);
}

void nvtx_range_tracker::pop(std::uint64_t thread) {
  std::lock_guard lock(mutex_);
  auto it = stacks_.find(thread);
  if (it == stacks_.end() || it->second.empty())
    return;
  auto open = open_.find(it->second.back());
  if (open != open_.end() && --open->second <= 0)
    open_.erase(open);
  it->second.pop_back();
  if (it->second.empty()) {
    stacks_.erase(it);
    std::erase(pushers_, thread);
  }
}

bool nvtx_range_tracker::inside(std::uint64_t thread, const std::string& name,
                                nvtx_scope scope) const {
  std::lock_guard lock(mutex_);
  if (scope == nvtx_scope::process)
    return open_.count(name) > 0;
  auto it = stacks_.find(thread);
  return it != stacks_.end() &&
         std::find(it->second.begin(), it->second.end(), name) != it->second.end();
}

std::vector<std::string> nvtx_range_tracker::path(std::uint64_t thread, nvtx_scope scope) const {
  std::lock_guard lock(mutex_);
  if (auto it = stacks_.find(thread); it != stacks_.end())
    return it->second;
  if (scope == nvtx_scope::thread || pushers_.empty())
    return {};
  return stacks_.at(pushers_.back());
}

} // namespace roofkit
