// Warp-stall finding: where the warps of a kernel far below its roofs wait, from PC sampling
// (stall counters put on the kernel by attach_stalls), and the limiter that wait points to.
#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "diagnosis_internal.hpp"
#include "roofkit/app_profile.hpp"

namespace roofkit::diag {

namespace {

// CUPTI's stall reasons (Nsight Compute's "warp state" names), what the sampled warp was doing
// and the limiter it points to. Reasons not listed count under "other".
struct stall_meaning {
  std::string_view reason;
  std::string_view means;
  std::string_view limiter;
};

constexpr std::array<stall_meaning, 17> stall_meanings{{
    {"long_scoreboard", "waiting on global or local memory", "latency_hiding"},
    {"lg_throttle", "waiting for the full global/local memory queue", "memory_instructions"},
    {"tex_throttle", "waiting for the full texture/L1 queue", "memory_instructions"},
    {"drain", "draining stores at exit", "memory_instructions"},
    {"short_scoreboard", "waiting on shared memory or special-function results", "shared_memory"},
    {"mio_throttle", "waiting for the full shared-memory/special-function (MIO) queue",
     "shared_memory"},
    {"barrier", "waiting at __syncthreads barriers", "synchronization"},
    {"membar", "waiting at memory fences", "synchronization"},
    {"math_pipe_throttle", "waiting for a busy math pipe", "compute"},
    {"wait", "waiting on fixed-latency dependencies", "compute"},
    {"not_selected", "ready while another warp issued", "compute"},
    {"selected", "issuing", "compute"},
    {"dispatch_stall", "waiting for the dispatcher", "compute"},
    {"no_instructions", "waiting for instructions (instruction cache misses)", "instruction_fetch"},
    {"branch_resolving", "waiting for branch targets", "instruction_fetch"},
    {"imc_miss", "waiting on constant cache misses", "other"},
    {"sleeping", "sleeping", "other"},
}};

const stall_meaning* meaning_of(std::string_view reason) {
  for (const auto& m : stall_meanings)
    if (m.reason == reason)
      return &m;
  return nullptr;
}

struct stall_share {
  std::string reason;
  double samples = 0;
};

// The kernel's stall samples by reason, most first.
std::vector<stall_share> stalls_of(const kernel_result& k, double& total) {
  const std::string prefix = stall_counter_prefix;
  std::vector<stall_share> out;
  total = 0;
  for (const auto& [name, value] : k.counters)
    if (name.rfind(prefix, 0) == 0 && value > 0) {
      out.push_back({name.substr(prefix.size()), value});
      total += value;
    }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.samples > b.samples; });
  return out;
}

} // namespace

std::optional<diagnosis_finding> stall_finding(const kernel_result& k, const kernel_placement& pl) {
  double total = 0;
  const auto stalls = stalls_of(k, total);
  if (stalls.empty() || pl.pct_of_roof >= near_roof_pct)
    return std::nullopt;
  std::map<std::string, double> by_limiter;
  for (const auto& s : stalls) {
    const auto* m = meaning_of(s.reason);
    by_limiter[m ? std::string(m->limiter) : "other"] += s.samples / total;
  }
  const auto top =
      std::max_element(by_limiter.begin(), by_limiter.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  diagnosis_finding f;
  f.kind = "warp_stalls";
  f.gain = gap_of(pl) * top->second;
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < stalls.size() && i < 3; ++i) {
    const auto* m = meaning_of(stalls[i].reason);
    parts.push_back(fmt::format("{:.0f}% {} ({})", 100 * stalls[i].samples / total,
                                m ? m->means : "other", stalls[i].reason));
    f.evidence["stall_share_" + stalls[i].reason] = stalls[i].samples / total;
  }
  f.text = fmt::format("warp-stall samples ({:.0f}): {}", total, fmt::join(parts, "; "));
  f.evidence["stall_samples"] = total;
  f.evidence["limiter_share"] = top->second;
  f.evidence_text["limiter"] = top->first;
  return f;
}

} // namespace roofkit::diag
