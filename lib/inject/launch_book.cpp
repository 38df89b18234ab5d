#include "launch_book.hpp"

namespace roofkit::inject {

int launch_book::range_of(const std::vector<std::string>& path) {
  if (path.empty())
    return -1;
  auto it = range_ids_.find(path);
  if (it != range_ids_.end())
    return it->second;
  std::vector<std::string> key = path;
  if (range_ids_.size() >= max_ranges) {
    key = {"(more NVTX ranges than roofkit follows)"};
    if (auto more = range_ids_.find(key); more != range_ids_.end())
      return more->second;
  }
  const int id = static_cast<int>(ranges_.size());
  ranges_.push_back(key);
  range_ids_.emplace(key, id);
  return id;
}

launch_book::place launch_book::locate(int kernel, const char* mangled,
                                       const std::array<std::uint32_t, 3>& grid,
                                       const std::array<std::uint32_t, 3>& block,
                                       std::uint32_t dynamic_smem,
                                       const std::vector<std::string>& path) {
  place p;
  p.shape = sampler_.shape_of(kernel, grid, block, dynamic_smem);
  if (static_cast<std::size_t>(p.shape) >= mangled_.size())
    mangled_.emplace_back(mangled ? mangled : "");
  p.range = range_of(path);
  auto [it, added] = group_ids_.try_emplace({p.shape, p.range}, static_cast<int>(groups_.size()));
  if (added)
    groups_.push_back({p.shape, p.range, 0, 0, 0});
  p.group = it->second;
  ++groups_[static_cast<std::size_t>(p.group)].launches;
  return p;
}

bool launch_book::measure(const place& p, std::int64_t index, std::string& line) {
  group_count& g = groups_[static_cast<std::size_t>(p.group)];
  if (sampler_.measure(p.shape)) {
    ++g.measured;
    return true;
  }
  ++g.inferred;
  inferred_.emplace_back(index, p.shape);
  if (inferred_.size() >= inferred_per_line) {
    line = inferred_line(inferred_, pid_);
    inferred_.clear();
  }
  return false;
}

std::vector<std::string> launch_book::finish(const std::vector<std::string>& kernel_names,
                                             const std::map<int, launch_time_stats>& stats) {
  std::vector<std::string> lines;
  if (!inferred_.empty())
    lines.push_back(inferred_line(inferred_, pid_));
  inferred_.clear();
  auto name_of = [&](int kernel) {
    return kernel >= 0 && static_cast<std::size_t>(kernel) < kernel_names.size()
               ? kernel_names[static_cast<std::size_t>(kernel)]
               : std::string("(unnamed kernel)");
  };
  const auto& shapes = sampler_.shapes();
  // The timings per kernel name, from its groups' times.
  std::map<int, launch_time_stats> per_kernel;
  for (const auto& [group, t] : stats)
    if (group >= 0 && static_cast<std::size_t>(group) < groups_.size())
      per_kernel[shapes[static_cast<std::size_t>(groups_[group].shape)].kernel].merge(t);
  for (const auto& [kernel, t] : per_kernel)
    if (t.count() > 0)
      lines.push_back(timing_line(
          {name_of(kernel), t.count(), t.total_s(), t.median_s(), t.min_s(), t.max_s()}));
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const auto& k = shapes[i];
    lines.push_back(shape_line({pid_, static_cast<int>(i), name_of(k.kernel), mangled_[i], k.grid,
                                k.block, k.dynamic_smem}));
  }
  for (std::size_t i = 0; i < ranges_.size(); ++i)
    lines.push_back(range_line({pid_, static_cast<int>(i), ranges_[i]}));
  for (std::size_t i = 0; i < groups_.size(); ++i) {
    const group_count& g = groups_[i];
    launch_group out{pid_, g.shape, g.range, g.launches, g.measured, g.inferred, 0, 0, 0};
    if (auto t = stats.find(static_cast<int>(i)); t != stats.end()) {
      out.total_s = t->second.total_s();
      out.min_s = t->second.min_s();
      out.max_s = t->second.max_s();
    }
    lines.push_back(group_line(out));
  }
  return lines;
}

} // namespace roofkit::inject
