// How few passes with SM counters the bench's set can have on a chip, offline (CUPTI host API, no
// GPU). A range costs about 1 ms in a pass that holds a counter of the SM's own domains and
// 0.05 ms in the others (validation/data/replay-launch-cost-h200.json), so that count sets what a
// profiled launch costs. Prints one JSON object: the set's passes; the passes of its non-SASS SM
// counters alone (L1, shared memory, warps, cycles) and of its SM tensor paths alone, the
// counter pairs that cannot share a pass, and the fewest groups of one pass each that a
// first-fit over 300 random orders found for all of them beside the cache-dependent counters.
// Which counters are of the SM's domains is by name here (l1tex__, sm__ non-SASS, the HMMA,
// IMMA, FP64 and HGMMA BF16/TF32 paths), after validation/data/counter-domains-gh100.json.
// Build against the library (see validation/lab/README.md):
//   g++ -std=c++20 -Ilib/include -I$CUDA_HOME/include validation/lab/sm_pass_floor.cpp
//       build/ci/lib/libroofkit.a -L$CUDA_HOME/lib64 -lcupti -lnvperf_host -lcudart -ldl -lpthread
//   ./a.out [CHIP]   (default GH100)
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofkit/bench.hpp"
#include "roofkit/profiler.hpp"

namespace {
using names = std::vector<std::string>;

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

bool tensor_on_sm(const std::string& n) {
  return has(n, "hmma") || has(n, "imma_src") || has(n, "tensor_src_fp64") ||
         has(n, "hgmma_src_bf16") || has(n, "hgmma_src_tf32");
}

bool on_sm(const std::string& n) {
  if (has(n, "__sass_"))
    return false;
  if (has(n, "tensor"))
    return tensor_on_sm(n);
  return n.rfind("l1tex__", 0) == 0 || n.rfind("sm__", 0) == 0;
}

// The fewest one-pass groups a first-fit found, the cache-dependent counters in the first.
int fewest_groups(const roofkit::cupti_catalog& cat, const names& cold, names sm) {
  std::mt19937 rng(1);
  int best = 1 << 20;
  for (int order = 0; order < 300 && best > 1; ++order) {
    std::shuffle(sm.begin(), sm.end(), rng);
    std::vector<names> groups{cold};
    for (const auto& n : sm) {
      bool placed = false;
      for (auto& g : groups) {
        g.push_back(n);
        if ((placed = cat.passes(g) == 1))
          break;
        g.pop_back();
      }
      if (!placed)
        groups.push_back({n});
    }
    best = std::min(best, static_cast<int>(groups.size()));
  }
  return best;
}

} // namespace

int main(int argc, char** argv) {
  const std::string chip = argc > 1 ? argv[1] : "GH100";
  const roofkit::cupti_catalog cat(chip);
  const auto set = roofkit::resolve_metric_set(roofkit::bench_metric_set(), cat);
  names cold, sm_other, sm_tensor, sm_warm;
  for (const auto& n : set.names()) {
    const bool cache = !roofkit::independent_of_cache_state(n);
    if (cache)
      cold.push_back(n);
    if (on_sm(n)) {
      (tensor_on_sm(n) ? sm_tensor : sm_other).push_back(n);
      if (!cache)
        sm_warm.push_back(n);
    }
  }
  nlohmann::json conflicts = nlohmann::json::array();
  names sm = sm_other;
  sm.insert(sm.end(), sm_tensor.begin(), sm_tensor.end());
  for (std::size_t i = 0; i < sm.size(); ++i)
    for (std::size_t j = i + 1; j < sm.size(); ++j)
      if (cat.passes({sm[i], sm[j]}) > 1)
        conflicts.push_back({sm[i], sm[j]});
  const nlohmann::json out = {{"chip", chip},
                              {"set_passes", set.passes},
                              {"sm_counters_not_tensor", sm_other},
                              {"their_passes", cat.passes(sm_other)},
                              {"sm_tensor_paths", sm_tensor},
                              {"their_passes_alone", cat.passes(sm_tensor)},
                              {"pairs_that_cannot_share_a_pass", conflicts},
                              {"fewest_one_pass_groups_with_the_cache_dependent_counters",
                               fewest_groups(cat, cold, sm_warm)}};
  std::printf("%s\n", out.dump(1).c_str());
}
