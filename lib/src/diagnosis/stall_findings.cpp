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

// CUPTI's stall reasons (Nsight Compute's "warp state" names), what each means and the limiter
// it points to. Reasons not listed count under "other".
struct stall_meaning {
  std::string_view reason;
  std::string_view means;
  std::string_view limiter;
};

constexpr std::array<stall_meaning, 17> stall_meanings{{
    {"long_scoreboard", "global or local memory latency", "latency_hiding"},
    {"lg_throttle", "a full global/local memory queue (too many memory instructions)",
     "memory_instructions"},
    {"tex_throttle", "a full texture/L1 queue", "memory_instructions"},
    {"drain", "stores draining at exit", "memory_instructions"},
    {"short_scoreboard", "shared memory or special-function results", "shared_memory"},
    {"mio_throttle", "a full shared-memory/special-function (MIO) queue", "shared_memory"},
    {"barrier", "__syncthreads barriers", "synchronization"},
    {"membar", "memory fences", "synchronization"},
    {"math_pipe_throttle", "a busy math pipe", "compute"},
    {"wait", "fixed-latency dependencies between instructions", "compute"},
    {"not_selected", "another ready warp being issued (enough warps are ready)", "compute"},
    {"selected", "nothing: the warp was issuing", "compute"},
    {"dispatch_stall", "the dispatcher", "compute"},
    {"no_instructions", "instruction fetch (instruction cache misses)", "instruction_fetch"},
    {"branch_resolving", "branch targets being resolved", "instruction_fetch"},
    {"imc_miss", "constant cache misses", "other"},
    {"sleeping", "warps sleeping (nanosleep)", "other"},
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
  f.text = fmt::format("warp-stall samples ({:.0f}): the warps wait on {}", total,
                       fmt::join(parts, "; "));
  f.evidence["stall_samples"] = total;
  f.evidence["limiter_share"] = top->second;
  f.evidence_text["limiter"] = top->first;
  return f;
}

} // namespace roofkit::diag
