// The kernels that matter in an application run: the top N by GPU time, the rest folded.
#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "roofkit/run.hpp"

namespace roofkit {

namespace {

double launches_of(const kernel_result& k) {
  const auto it = k.counters.find("roofkit__app_launches");
  return it != k.counters.end() && it->second >= 1 ? it->second : 1.0;
}

double total_of(const kernel_result& k, const std::string& counter, double otherwise) {
  const auto it = k.counters.find(counter);
  return it != k.counters.end() ? it->second : otherwise;
}

std::string share_text(double share) {
  return share >= 0.095 ? fmt::format("{:.0f}%", 100 * share) : fmt::format("{:.1f}%", 100 * share);
}

} // namespace

double kernel_gpu_time(const kernel_result& k) {
  if (const auto it = k.counters.find("roofkit__app_total_time_s");
      it != k.counters.end() && it->second > 0)
    return it->second;
  return k.time.median_s > 0 ? k.time.median_s : 0;
}

run top_kernels_run(const run& r, std::size_t n) {
  const auto labels = kernel_labels(r, 22); // with " 23%" within a chart's 28 characters
  std::vector<std::size_t> order(r.kernels.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&r](std::size_t a, std::size_t b) {
    return kernel_gpu_time(r.kernels[a]) > kernel_gpu_time(r.kernels[b]);
  });
  double total = 0;
  for (const auto& k : r.kernels)
    total += kernel_gpu_time(k);
  run out;
  out.context = r.context;
  out.ceilings = r.ceilings;
  kernel_result other;
  std::size_t folded = 0;
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    const kernel_result& k = r.kernels[order[rank]];
    const double t = kernel_gpu_time(k);
    if (rank < n) {
      kernel_result top = k;
      top.display_name =
          labels[order[rank]] + (total > 0 ? " " + share_text(t / total) : std::string());
      out.kernels.push_back(std::move(top));
      continue;
    }
    if (k.status != "ok" || !(t > 0))
      continue;
    // A profiled application's kernels carry their work extrapolated to all their launches.
    const double launches = launches_of(k);
    for (const auto& [p, f] : k.flops)
      other.flops[p] += total_of(k, "roofkit__app_total_flops." + to_string(p), f * launches);
    for (const auto& [l, b] : k.bytes)
      other.bytes[l] += total_of(k, "roofkit__app_total_bytes." + to_string(l), b * launches);
    other.time.median_s += t;
    ++folded;
  }
  if (folded > 0) {
    other.name = fmt::format("other ({} kernels)", folded);
    other.display_name =
        other.name + (total > 0 ? " " + share_text(other.time.median_s / total) : std::string());
    other.time.min_s = other.time.max_s = other.time.median_s;
    other.time.repetitions = 1;
    other.topic = "other";
    out.kernels.push_back(std::move(other));
  }
  return out;
}

} // namespace roofkit
